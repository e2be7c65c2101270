/// Reads a time as seconds since 1970-01-01T00:00:00Z: Unix seconds (`1709251200`, a fraction
/// rounded down to its second), a date (`2024-03-01`, its midnight in UTC) or an ISO 8601
/// date-time (`2024-03-01T13:45`, `2024-03-01 13:45:30.5`, with `Z` or an offset such as
/// `+01:00`, `+0100` or `+01`; without one it is UTC). Every time is kept to the second.
package enum TimeParser {
    /// Which of the two spellings a value uses: a column holds one kind only.
    package enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A number of seconds since 1970-01-01T00:00:00Z.
        case unixSeconds
        /// An ISO 8601 date or date-time.
        case calendar

        /// How the kind reads in a message.
        package var description: String { self == .unixSeconds ? "Unix seconds" : "an ISO 8601 date or date-time" }
    }

    /// The earliest and latest second a time may name: years 0000 through 9999.
    package static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// The second `text` names and the kind of its spelling, or `nil` when it is neither a
    /// number nor an ISO 8601 date or date-time in years 0000...9999.
    package static func parse<Bytes: Collection<UInt8>>(_ text: Bytes) -> (seconds: Int64, kind: Kind)? {
        var bytes = Array(text)
        while let last = bytes.last, last == 32 || last == 9 { bytes.removeLast() }
        var start = 0
        while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        let trimmed = bytes[start...]
        guard let first = trimmed.first else { return nil }
        if let seconds = unixSeconds(trimmed), first != 43 { return (seconds, .unixSeconds) }
        return calendar(Array(trimmed)).map { ($0, .calendar) }
    }

    /// The second a text names (see ``parse(_:)``).
    package static func parse(_ text: String) -> (seconds: Int64, kind: Kind)? { parse(Array(text.utf8)) }

    /// `-?digits(.digits)?` within ``range``, rounded down to the second.
    private static func unixSeconds(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var i = bytes.startIndex
        let negative = bytes[i] == 45
        if negative { i += 1 }
        var whole: Int64 = 0
        var digits = 0
        while i < bytes.endIndex, (48...57).contains(bytes[i]) {
            guard digits < 15 else { return nil }
            whole = whole * 10 + Int64(bytes[i] - 48)
            digits += 1
            i += 1
        }
        guard digits > 0 else { return nil }
        var fraction = false
        if i < bytes.endIndex, bytes[i] == 46 {
            i += 1
            let fractionStart = i
            while i < bytes.endIndex, (48...57).contains(bytes[i]) {
                if bytes[i] != 48 { fraction = true }
                i += 1
            }
            guard i > fractionStart else { return nil }
        }
        guard i == bytes.endIndex else { return nil }
        let seconds = negative ? -whole - (fraction ? 1 : 0) : whole
        return range.contains(seconds) ? seconds : nil
    }

    /// `YYYY-MM-DD`, optionally `T` or a space and `hh:mm`, `:ss`, `.fraction`, then `Z` or an
    /// offset `±hh`, `±hh:mm` or `±hhmm`.
    private static func calendar(_ b: [UInt8]) -> Int64? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var value = 0
            for j in i..<(i + n) {
                guard (48...57).contains(b[j]) else { return nil }
                value = value * 10 + Int(b[j] - 48)
            }
            i += n
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), skip(45), let month = digits(2), skip(45), let day = digits(2) else { return nil }
        guard (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: year)).contains(day) else {
            return nil
        }
        var seconds = Int64(CivilTime.days(year: year, month: month, day: day)) * 86_400
        guard i < b.count else { return seconds }
        guard skip(84) || skip(116) || skip(32), let hour = digits(2), skip(58), let minute = digits(2) else {
            return nil
        }
        var second = 0
        if skip(58) {
            guard let s = digits(2) else { return nil }
            second = s
            if skip(46) || skip(44) {
                let fractionStart = i
                while i < b.count, (48...57).contains(b[i]) { i += 1 }
                guard i > fractionStart else { return nil }
            }
        }
        guard hour < 24, minute < 60, second < 60 else { return nil }
        seconds += Int64(hour * 3600 + minute * 60 + second)
        if skip(90) || skip(122) {
            return i == b.count && range.contains(seconds) ? seconds : nil
        }
        guard i < b.count else { return range.contains(seconds) ? seconds : nil }
        let sign: Int64
        if skip(43) { sign = 1 } else if skip(45) { sign = -1 } else { return nil }
        guard let offsetHours = digits(2), offsetHours < 24 else { return nil }
        var offsetMinutes = 0
        if i < b.count {
            _ = skip(58)
            guard let m = digits(2), m < 60 else { return nil }
            offsetMinutes = m
        }
        guard i == b.count else { return nil }
        seconds -= sign * Int64(offsetHours * 3600 + offsetMinutes * 60)
        return range.contains(seconds) ? seconds : nil
    }

    /// The UTC date-time of a second, `2024-03-01T13:45:00Z`, as the command prints times.
    package static func format(_ seconds: Int64) -> String {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let second = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = CivilTime.date(days: days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return
            "\(yearText)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }
}
