import HeatmapCore

/// A time window read through the time summaries (see ``TimeSummaries``): their state as the
/// source read it, the window, the time column, and the source's filter without the window.
struct TimeSummaryUse: Sendable, Hashable {
    var state: TimeSummaryState
    var start: Int64?
    var end: Int64?
    var time: FilterColumn
    /// The condition on rows besides the window (the user's `--where`), or `nil`.
    var rest: String?

    /// The window's split at `level`, over the spans whose finest level is at most it; `nil`
    /// when the rows answer alone.
    func buckets(level: Int) -> TimeBuckets? {
        let usable = zip(TimeSummaries.spans, state.finest).filter { $0.1 <= level }.map(\.0)
        return TimeBuckets(start: start, end: end, days: state.days, usable: usable)
    }

    /// The rows on the window's days, as the summaries counted them (a partial day whole).
    var windowRows: Int {
        let whole = TimeBuckets(start: start, end: end, days: state.days, usable: [])
        return state.rows(onDays: whole?.rowDays(inside: state.days) ?? [])
    }

    /// The condition that the row's time lies in one of `split`'s intervals, in the terms of
    /// `T_time`, a B-tree on the time read as UTC (`"t" AT TIME ZONE 'UTC'`, immutable): only
    /// these statements can use it, so it never takes the place of the key's B-tree in a
    /// tile's other statements (a day's window planned through it read each of its rows' heap
    /// pages); `nil` for none.
    func rowsCondition(_ split: TimeBuckets) -> String? {
        let utc = "(\(time.quoted) AT TIME ZONE 'UTC')"
        func bound(_ second: Int64) -> String {
            "(to_timestamp(\(PostgresConnection.boundValue("\(second)"))::float8) AT TIME ZONE 'UTC')"
        }
        let parts = split.rows.compactMap { interval -> String? in
            let ends =
                (interval.start.map { ["\(utc) >= \(bound($0))"] } ?? [])
                + (interval.end.map { ["\(utc) < \(bound($0))"] } ?? [])
            return ends.isEmpty ? nil : "(" + ends.joined(separator: " AND ") + ")"
        }
        return parts.isEmpty ? nil : "(" + parts.joined(separator: " OR ") + ")"
    }
}

extension TimeSummaryUse {
    /// How a statement reads the rows a window's buckets leave (see ``route(_:codes:level:)``).
    enum RowsRoute: Sendable, Hashable {
        /// Through the time's B-tree: the window's rows of the whole world.
        case byTime
        /// Through the key's: the area's rows of all times.
        case byKey
        /// Both, one gated by the statement's own count (``cheaperByTime(_:codes:level:first:)``).
        case inStatement
    }

    /// How many index-only entries of the key's B-tree cost about one row read through the
    /// time's (a heap row each): measured on the benchmark's table, 1.8 µs against 0.4 µs.
    static let rowCost = 4.0

    /// How to read the rows `split` leaves to the rows inside the key ranges `codes` (codes of
    /// `level`), decided from the counts the source holds where they tell: by key where the
    /// area's rows of all times (estimated from the counted cells, ``TimeSummaryState/estimatedRows(inCodes:level:)``)
    /// cost no more than the window's rows by time; by time where they cost more and the
    /// estimate is close (the ranges cover a quarter of the cells they touch or more) or 16
    /// times more; else the statement chooses. Either route reads the same rows: a count gone
    /// stale only costs time.
    func route(_ split: TimeBuckets, codes: [(UInt64, UInt64)], level: Int) -> RowsRoute {
        Self.route(
            window: Double(state.rows(onDays: split.rowDays(inside: state.days))),
            area: state.estimatedRows(inCodes: codes, level: level))
    }

    /// The route for `window` rows left (counted) against `area`'s estimated rows of all times
    /// and the share of its cells it covers (see ``route(_:codes:level:)``).
    static func route(window: Double, area: (rows: Double, covered: Double)) -> RowsRoute {
        if area.rows <= rowCost * window { return .byKey }
        if area.covered >= 0.25 || area.rows >= 16 * rowCost * window { return .byTime }
        return .inStatement
    }

    /// The condition, its parameters numbered from `first`, that the rows `split` leaves to the
    /// rows are fewer in the whole world (read through the time's B-tree) than the rows of all
    /// times in the cells `codes` of `level` (read through the key's), both as the time
    /// summaries count them: the days' (a partial day whole, counted when the source read the
    /// state), the coarsest span's cells 64 pixels of `level` wide (its finest level's where
    /// those are coarser). An uncorrelated subquery, run once a statement: of the two branches of the rows
    /// left, one under it and one under its negation, one runs, and either gives the same rows,
    /// so a count gone stale only costs time.
    func cheaperByTime(_ split: TimeBuckets, codes: [(UInt64, UInt64)], level: Int, first: Int)
        -> (condition: String, values: [String?])
    {
        let coarsest = TimeSummaries.spans.count - 1
        let span = TimeSummaries.spans[coarsest]
        let estimate = min(CellSummaries.levels.upperBound, max(state.finest[coarsest], level + 6))
        var merged: [(UInt64, UInt64)] = []
        for code in codes.map({ ($0.0 >> UInt64(2 * (estimate - level)), $0.1 >> UInt64(2 * (estimate - level))) })
            .sorted(by: { $0.0 < $1.0 })
        {
            if let last = merged.last, code.0 <= last.1 &+ 1 {
                merged[merged.count - 1].1 = max(last.1, code.1)
            } else {
                merged.append(code)
            }
        }
        let values: [String?] = [
            "\(state.rows(onDays: split.rowDays(inside: state.days)))",
            "\(state.days.lowerBound >> span)", "\(state.days.upperBound >> span)", "\(estimate)",
            "{" + merged.map { "\($0.0)" }.joined(separator: ",") + "}",
            "{" + merged.map { "\($0.1)" }.joined(separator: ",") + "}",
        ]
        let n = first
        let condition =
            "($\(n)::int8 < (SELECT coalesce(sum(c.rows), 0) FROM generate_series($\(n + 1)::int8, $\(n + 2)::int8) "
            + "AS b(bucket) CROSS JOIN unnest($\(n + 4)::int8[], $\(n + 5)::int8[]) AS k(low, high) CROSS JOIN LATERAL "
            + "(SELECT rows FROM \(state.cells) WHERE level = $\(n + 3)::int2 AND span = \(span) "
            + "AND bucket = b.bucket AND key BETWEEN k.low AND k.high) c))"
        return (condition, values)
    }
}
