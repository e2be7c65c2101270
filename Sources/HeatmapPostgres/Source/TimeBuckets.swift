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
    /// Whether the whole days no usable span covers are at most ``uncoveredDays`` or an eighth
    /// of the window's.
    var fewDaysLeft = true

    /// Whole days left to the rows that a window of any length may have (more only for a
    /// window over 8 times longer) for its buckets to be read.
    static let uncoveredDays: Int64 = 2

    /// The most buckets one statement reads (a year of days is 366).
    static let maximumBuckets = 512

    /// The split of `window` over the summaries of `days`, with the spans in `usable` (none:
    /// the whole window is left to the rows); `nil` when it takes more than ``maximumBuckets``.
    /// Whether the rows left are read through the time's B-tree or the key's, the counts
    /// decide (``TimeSummaryUse/route(_:codes:level:)``).
    ///
    /// - Complexity: O(buckets + days no usable span covers).
    init?(start: Int64?, end: Int64?, days: ClosedRange<Int64>, usable: [Int]) {
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
        guard first < last else {
            // No whole day: the window is left to the rows.
            rows = [(start, end)]
            return
        }
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
        let left = uncovered.reduce(Int64(0)) { $0 + $1.1 - $1.0 }
        fewDaysLeft = left <= max(Self.uncoveredDays, (last - first) / 8)
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

extension TimeBuckets {
    /// The days (as day numbers, inclusive ranges) the rows left to the rows lie on, inside
    /// `days`: a partial day counts whole.
    func rowDays(inside days: ClosedRange<Int64>) -> [ClosedRange<Int64>] {
        let day = TimeSummaries.day
        return rows.compactMap { interval in
            let low = max(days.lowerBound, interval.start.map { $0 >= 0 ? $0 / day : ($0 - day + 1) / day } ?? .min)
            let high = min(
                days.upperBound, interval.end.map { ($0 > 0 ? ($0 - 1) / day : ($0 - day) / day) } ?? .max)
            return low <= high ? low...high : nil
        }
    }
}
