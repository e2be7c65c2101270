import HeatmapCore

extension PostgresSource {
    /// M(z)'s cell statement at `level` for a time window whose summaries do not serve that level
    /// (``summaryRead(level:)`` is `nil`: the rows answer), reading the window's rows through the
    /// time's B-tree where the counts say they cost less than the area's rows of all times read
    /// through the key's (``TimeSummaryUse/route(_:codes:level:)``); `nil` for the rows by key.
    /// Over the key ranges `$1`, `$2` (`ranges`) with the minimum `$3`, as ``cells(_:on:)``.
    ///
    /// Either way the same rows: no summary is read, so nothing depends on the counts being fresh.
    func windowCells(level: Int, ranges: [ClosedRange<Int64>]) -> String? {
        guard let use = layout.timeSummaries,
            let whole = TimeBuckets(start: use.start, end: use.end, days: use.state.days, usable: []),
            let window = use.rowsCondition(whole)
        else { return nil }
        let shift = UInt64(2 * level)
        let codes = ranges.map {
            (UInt64(bitPattern: $0.lowerBound) >> shift, UInt64(bitPattern: $0.upperBound) >> shift)
        }
        guard use.route(whole, codes: codes, level: level) == .byTime else { return nil }
        var conditions = [
            window, "\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8",
            Self.inKeyRanges("r.\(layout.key)"),
        ]
        if let rest = use.rest { conditions.append("(\(rest))") }
        return """
            SELECT min(\(layout.x)) >> \(level) AS cx, min(\(layout.y)) >> \(level) AS cy, \
            sum(\(layout.weight)) AS w FROM \(layout.table) r WHERE \(conditions.joined(separator: " AND ")) \
            GROUP BY \(layout.key) >> \(2 * level) HAVING sum(\(layout.weight)) >= $3::float8
            """
    }

    /// The condition that `key` lies in one of the key ranges `$1`, `$2` (inclusive, in order):
    /// one multirange made once a statement, searched in O(log ranges) a row (an `EXISTS` over
    /// the ranges was a scan of them a row: 1.3 s for 15,561 rows and 1,000 ranges, against
    /// 21 ms). `int8multirange` is PostgreSQL 14's; a range to the largest key has no end.
    static func inKeyRanges(_ key: String) -> String {
        "\(key) <@ (SELECT range_agg(int8range(k.low, nullif(k.high, 9223372036854775807) + 1)) "
            + "FROM unnest($1::int8[], $2::int8[]) AS k(low, high))"
    }
}
