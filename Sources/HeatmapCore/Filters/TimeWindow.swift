/// A half-open window of time, `start..<end` in seconds since 1970-01-01T00:00:00Z, either end
/// open: the `datetime` filter.
///
/// Written as OGC API - Features writes intervals: `START/END`, with `..` (or nothing) for an
/// open end, each end a time ``TimeParser`` reads; a single time means that second. The end is
/// not in the window: `2024-03-01/2024-04-01` is March 2024.
package struct TimeWindow: Sendable, Hashable, CustomStringConvertible {
    /// The first second in the window, or `nil` for no lower bound.
    package var start: Int64?
    /// The first second after the window, or `nil` for no upper bound.
    package var end: Int64?

    /// Every time.
    package static let all = TimeWindow(start: nil, end: nil)

    /// A window from its ends (`nil` for an open one).
    package init(start: Int64?, end: Int64?) {
        self.start = start
        self.end = end
    }

    /// Whether `second` lies in the window.
    @inline(__always)
    package func contains(_ second: Int64) -> Bool {
        (start.map { second >= $0 } ?? true) && (end.map { second < $0 } ?? true)
    }

    /// Whether every second of `first...last` lies in the window.
    package func covers(_ first: Int64, _ last: Int64) -> Bool { contains(first) && contains(last) }

    /// Whether no second of `first...last` lies in the window.
    package func misses(_ first: Int64, _ last: Int64) -> Bool {
        (end.map { first >= $0 } ?? false) || (start.map { last < $0 } ?? false)
    }

    /// Whether the window has no bound.
    package var isAll: Bool { start == nil && end == nil }

    /// `START/END` in UTC, `..` for an open end.
    package var description: String {
        (start.map(TimeParser.format) ?? "..") + "/" + (end.map(TimeParser.format) ?? "..")
    }

    /// Reads `START/END` or a single time.
    ///
    /// - Throws: ``FilterError`` naming the text for an end that is not a time, more than one
    ///   `/`, or a start not before the end.
    package init(parsing text: String) throws(FilterError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        func time(_ part: Substring) throws(FilterError) -> Int64? {
            let trimmed = part.trimmingCharacters(in: [" ", "\t"])
            if trimmed.isEmpty || trimmed == ".." { return nil }
            guard let (seconds, _) = TimeParser.parse(Array(trimmed.utf8)) else {
                throw FilterError(
                    "datetime \(text.quotedForFilter): \(String(trimmed).quotedForFilter) is not a time; give "
                        + "Unix seconds, a date (2024-03-01) or an ISO 8601 date-time (2024-03-01T13:45:00Z), "
                        + "or '..' for an open end")
            }
            return seconds
        }
        switch parts.count {
        case 1:
            guard let instant = try time(parts[0]) else {
                throw FilterError("datetime \(text.quotedForFilter) is empty; give START/END or one time")
            }
            self.init(start: instant, end: instant + 1)
        case 2:
            let (start, end) = (try time(parts[0]), try time(parts[1]))
            if let start, let end, start >= end {
                throw FilterError(
                    "datetime \(text.quotedForFilter) is \(start > end ? "reversed" : "empty"): the start must come "
                        + "before the end (the end is not included)")
            }
            self.init(start: start, end: end)
        default:
            throw FilterError("datetime \(text.quotedForFilter) has \(parts.count - 1) '/'; give START/END")
        }
    }
}

extension Substring {
    /// The text without leading and trailing `characters`.
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> Substring {
        var slice = self
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return slice
    }
}
