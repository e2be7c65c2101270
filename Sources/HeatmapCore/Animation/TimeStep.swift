/// A length of time counted in hours, days, weeks or calendar months: an animation's step
/// from one frame to the next, or the window each frame shows.
///
/// Written `1h`, `6h`, `1d`, `7d`, `1w`, `1mo` (also `hour`, `days`, `2weeks`, `3months`).
/// Hours, days and weeks are fixed numbers of seconds; months are calendar months in UTC
/// (``CivilTime/addingMonths(_:)``).
package struct TimeStep: Sendable, Hashable, CustomStringConvertible {
    /// The unit of a ``TimeStep``.
    package enum Unit: String, Sendable, Hashable, CaseIterable {
        /// 3,600 seconds.
        case hour = "h"
        /// 86,400 seconds (UTC has no daylight saving).
        case day = "d"
        /// 604,800 seconds.
        case week = "w"
        /// A calendar month: 28 to 31 days.
        case month = "mo"

        /// The seconds of one unit, `nil` for months.
        var seconds: Int? {
            switch self {
            case .hour: 3600
            case .day: 86400
            case .week: 604_800
            case .month: nil
            }
        }
    }

    /// How many units; at least 1.
    package let count: Int
    /// The unit.
    package let unit: Unit

    /// The most units a step holds: a million hours is over a century.
    package static let maximumCount = 1_000_000

    /// A step of `count` units.
    ///
    /// - Throws: ``FramePlanError`` when `count` is zero, negative or over ``maximumCount``;
    ///   `name` (`step`, `window`) says which setting it was.
    package init(count: Int, unit: Unit, name: String = "step") throws(FramePlanError) {
        guard count >= 1 else {
            throw FramePlanError(
                .nonPositiveLength, "the \(name) must be positive, not \(count)\(unit.rawValue)")
        }
        guard count <= Self.maximumCount else {
            throw FramePlanError(
                .lengthTooLong, "the \(name) \(count)\(unit.rawValue) is over the limit of \(Self.maximumCount) units")
        }
        self.count = count
        self.unit = unit
    }

    /// Parses `1d`, `12h`, `2w`, `1mo` (and the unit's words: `day`, `3 months`).
    ///
    /// - Throws: ``FramePlanError`` naming `name` and the text when it is not a positive whole
    ///   number followed by a unit.
    package init(parsing text: String, name: String = "step") throws(FramePlanError) {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.prefix { $0 == "-" || $0 == "+" || ("0"..."9").contains($0) }
        let suffix = trimmed.dropFirst(digits.count).trimmingSpaces.lowercased()
        let units: [String: Unit] = [
            "h": .hour, "hour": .hour, "hours": .hour, "d": .day, "day": .day, "days": .day, "w": .week,
            "week": .week, "weeks": .week, "mo": .month, "month": .month, "months": .month,
        ]
        let usage = "write a whole number and h, d, w or mo: 1h, 1d, 7d, 1w, 1mo"
        guard let unit = units[suffix] else {
            throw FramePlanError(
                .unparsable, "the \(name) '\(text)' has no unit of hours, days, weeks or months; \(usage)")
        }
        let number = digits.isEmpty ? 1 : Int(digits)
        guard let number else {
            throw FramePlanError(.unparsable, "the \(name) '\(text)' is not a whole number of \(unit); \(usage)")
        }
        try self.init(count: number, unit: unit, name: name)
    }

    /// The step as it is written: `7d`, `1mo`.
    package var description: String { "\(count)\(unit.rawValue)" }

    /// The instant `times` steps after `start`, `nil` when it falls outside ``CivilTime/range``.
    ///
    /// Months are counted from `start` each time (not step after step), so 2024-01-31 plus
    /// one, two and three months are 2024-02-29, 2024-03-31 and 2024-04-30.
    package func advance(_ start: Int, times: Int) -> Int? {
        guard times >= 0, CivilTime.range.contains(start) else { return nil }
        if let seconds = unit.seconds {
            let (steps, overflow1) = times.multipliedReportingOverflow(by: count)
            let (offset, overflow2) = steps.multipliedReportingOverflow(by: seconds)
            let (end, overflow3) = start.addingReportingOverflow(offset)
            guard !overflow1, !overflow2, !overflow3, CivilTime.range.contains(end) else { return nil }
            return end
        }
        let (months, overflow) = times.multipliedReportingOverflow(by: count)
        guard !overflow, let civil = CivilTime(unixSeconds: start), let moved = civil.addingMonths(months) else {
            return nil
        }
        return moved.unixSeconds
    }
}

extension StringProtocol {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { $0 != " " }), let last = text.lastIndex(where: { $0 != " " })
        else { return "" }
        return text[first...last]
    }
}
