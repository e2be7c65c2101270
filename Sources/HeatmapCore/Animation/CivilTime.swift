/// Unix seconds as UTC calendar dates and times, and back, in the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil` and `civil_from_days`): no time zones, no leap seconds,
/// as Unix time has none.
///
/// Only instants from year 1 to year 9999 are handled (``range``), so no arithmetic overflows.
package struct CivilTime: Sendable, Hashable {
    /// The year, 1...9999.
    package var year: Int
    /// The month, 1...12.
    package var month: Int
    /// The day of the month, 1...31.
    package var day: Int
    /// Seconds since midnight, 0..<86400.
    package var secondOfDay: Int

    /// The Unix seconds this type handles: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
    package static let range: ClosedRange<Int> = -62_135_596_800...253_402_300_799

    /// The date and time of `seconds` since 1970-01-01T00:00:00Z, or `nil` outside ``range``.
    package init?(unixSeconds seconds: Int) {
        guard Self.range.contains(seconds) else { return nil }
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        secondOfDay = seconds - days * 86400
        (year, month, day) = Self.date(days: days)
    }

    /// The date `days` after 1970-01-01 (civil_from_days: eras of 400 years, 146,097 days,
    /// from 0000-03-01), for any day an `Int` holds without overflow in `days + 719,468`.
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// A date and time from its fields, which are not checked (see ``unixSeconds``).
    package init(year: Int, month: Int, day: Int, secondOfDay: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.secondOfDay = secondOfDay
    }

    /// The Unix seconds of this date and time; days past the month's end roll into the next
    /// month. Fields far outside their ranges give meaningless values: callers check ``range``.
    package var unixSeconds: Int {
        Self.days(year: year, month: month, day: day) * 86400 + secondOfDay
    }

    /// Days since 1970-01-01 of a date (days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The number of days in `month` of `year`.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The same day and time `months` calendar months later (earlier when negative), the day
    /// kept or, past the new month's end, its last day (2024-01-31 plus one month is
    /// 2024-02-29); `nil` outside ``range``.
    package func addingMonths(_ months: Int) -> CivilTime? {
        let index = year * 12 + (month - 1)
        guard months.magnitude <= 12 * 10_000 else { return nil }
        let moved = index + months
        let newYear = moved >= 0 ? moved / 12 : (moved - 11) / 12
        let newMonth = moved - newYear * 12 + 1
        guard (1...9999).contains(newYear) else { return nil }
        return CivilTime(
            year: newYear, month: newMonth, day: min(day, Self.daysIn(month: newMonth, year: newYear)),
            secondOfDay: secondOfDay)
    }

    /// The date as `2024-03-01`.
    package var dateText: String {
        "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    /// The time of day as `13:05`, with `:07` seconds when they are not zero.
    package var timeText: String {
        let seconds = secondOfDay % 60
        let text = "\(Self.padded(secondOfDay / 3600, 2)):\(Self.padded(secondOfDay / 60 % 60, 2))"
        return seconds == 0 ? text : text + ":\(Self.padded(seconds, 2))"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
