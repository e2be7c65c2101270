/// A time window split for the time summaries (see ``TimeSummaries``): the whole buckets it
/// holds, each of the coarsest span that is aligned there and fits, and the intervals of
/// seconds left to the rows (the partial days at its ends, days no usable span covers, and the
/// times before the first day or after the last the summaries hold, where an open end reaches).
///
/// Together they are the window exactly: a bucket's days lie in it, and every second of it is
/// in one bucket or one interval.
struct TimeBuckets: Sendable {
    /// The whole buckets, as their span and number (days since 1970 shifted right by the span).
    var buckets: [(span: Int, bucket: Int64)] = []
    /// The rest of the window, half-open intervals of seconds (`nil` ends are open).
    var rows: [(start: Int64?, end: Int64?)] = []

    /// The most buckets one statement reads (a year of days is 366).
    static let maximumBuckets = 512
    /// Whole days left to the rows that a window of any length may have (more only for a
    /// window over 8 times longer).
    static let uncoveredDays: Int64 = 2

    /// The split of `window` over the summaries of `days`, with the spans in `usable`; `nil`
    /// (the rows answer alone) when no whole bucket fits, it takes more than
    /// ``maximumBuckets``, or the whole days no usable span covers are more than
    /// ``uncoveredDays`` and an eighth of the window's.
    ///
    /// - Complexity: O(buckets + days no usable span covers).
    init?(start: Int64?, end: Int64?, days: ClosedRange<Int64>, usable: [Int]) {
        guard !usable.isEmpty else { return nil }
        let day = TimeSummaries.day
        // Whole days of the window inside the summaries' days.
        var first = days.lowerBound
        if let start {
            let (q, r) = start.quotientAndRemainder(dividingBy: day)
            first = max(first, r > 0 ? q + 1 : q)
        }
        var last = days.upperBound + 1
        if let end {
            let (q, r) = end.quotientAndRemainder(dividingBy: day)
            last = min(last, r < 0 ? q - 1 : q)
        }
        guard first < last else { return nil }
        let spans = usable.sorted(by: >)
        var uncovered: [(Int64, Int64)] = []
        var position = first
        while position < last {
            if let span = spans.first(where: { position & ((1 << $0) - 1) == 0 && position + (1 << $0) <= last }) {
                buckets.append((span, position >> span))
                guard buckets.count <= Self.maximumBuckets else { return nil }
                position += 1 << span
            } else {
                if let previous = uncovered.last, previous.1 == position {
                    uncovered[uncovered.count - 1].1 = position + 1
                } else {
                    uncovered.append((position, position + 1))
                }
                position += 1
            }
        }
        // Days no usable span covers are read from the rows of the whole world (through the
        // time's B-tree): past an eighth of the window, the tile's own rows cost less.
        let left = uncovered.reduce(Int64(0)) { $0 + $1.1 - $1.0 }
        guard !buckets.isEmpty, left <= max(Self.uncoveredDays, (last - first) / 8) else { return nil }
        var intervals: [(start: Int64?, end: Int64?)] = []
        if start.map({ $0 < first * day }) ?? true { intervals.append((start, first * day)) }
        for (low, high) in uncovered { intervals.append((low * day, high * day)) }
        if end.map({ $0 > last * day }) ?? true { intervals.append((last * day, end)) }
        // Intervals that touch are one.
        for interval in intervals {
            if let previous = rows.last, let end = previous.end, let start = interval.start, end == start {
                rows[rows.count - 1].end = interval.end
            } else {
                rows.append(interval)
            }
        }
    }
}
