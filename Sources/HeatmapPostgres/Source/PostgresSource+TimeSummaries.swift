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

    /// The two arrays of the buckets' spans and numbers, as parameters.
    static func arrays(_ split: TimeBuckets) -> [String?] {
        [
            "{" + split.buckets.map { "\($0.span)" }.joined(separator: ",") + "}",
            "{" + split.buckets.map { "\($0.bucket)" }.joined(separator: ",") + "}",
        ]
    }
}

extension PostgresSource {
    /// Whether a tile at `space` reads the time summaries (see ``timeSummaryStatement(space:columns:rows:)``).
    func readsTimeSummaries(at space: PixelSpace) -> Bool {
        guard let use = layout.timeSummaries, let level = space.pixelLevel, CellSummaries.levels.contains(level)
        else { return false }
        return use.buckets(level: level) != nil
    }

    /// The statement for the pixel weights of `columns` × `rows` at `space` from the time
    /// summaries, while they hold the table's rows: the whole buckets from the summaries, the
    /// rest of the window from the rows through the time's B-tree; the window from the rows
    /// otherwise. `nil` when the level has no summaries or the window no whole bucket.
    func timeSummaryStatement(space: PixelSpace, columns: Range<Int>, rows pixelRows: Range<Int>)
        -> (String, [String?])?
    {
        guard let use = layout.timeSummaries, let level = space.pixelLevel, CellSummaries.levels.contains(level),
            let split = use.buckets(level: level), let window = use.time.condition(in: (use.start, use.end))
        else { return nil }
        let units = (
            space.firstUnit(ofPixel: columns.lowerBound)..<space.firstUnit(ofPixel: columns.upperBound),
            space.firstUnit(ofPixel: pixelRows.lowerBound)..<space.firstUnit(ofPixel: pixelRows.upperBound)
        )
        // Parameters 7 and 8 (after the rectangle's six) say whether the summaries hold the rows.
        let fresh = "(\(TimeSummaries.freshCondition(name: 7, built: 8)))"
        let state: [String?] = [layout.qualifiedName, use.state.built]
        let rest = withFilter(use.rest)
        let (stale, staleParameters) = rest.rowStatement(
            units: units, space: space, firstParameters: state, condition: "NOT \(fresh) AND \(window)")
        var sql = ""
        var parameters = staleParameters
        parameters += [
            "\(level)", "\(columns.lowerBound)", "\(columns.upperBound)", "\(pixelRows.lowerBound)",
            "\(pixelRows.upperBound)",
        ]
        parameters += TimeSummaryUse.arrays(split)
        let covering = KeyRanges.covering(
            columns: UInt64(columns.lowerBound)..<UInt64(columns.upperBound),
            rows: UInt64(pixelRows.lowerBound)..<UInt64(pixelRows.upperBound))
        parameters.append("{" + covering.map { "\($0.lowerBound)" }.joined(separator: ",") + "}")
        parameters.append("{" + covering.map { "\($0.upperBound)" }.joined(separator: ",") + "}")
        let n = parameters.count
        sql =
            "SELECT c.* FROM unnest($\(n - 3)::int2[], $\(n - 2)::int8[]) AS t(span, bucket) CROSS JOIN "
            + "unnest($\(n - 1)::int8[], $\(n)::int8[]) AS k(low, high) CROSS JOIN LATERAL (SELECT x, y, weight "
            + "FROM \(use.state.cells) WHERE \(fresh) AND level = $\(n - 8)::int2 AND span = t.span "
            + "AND bucket = t.bucket AND key BETWEEN k.low AND k.high AND x >= $\(n - 7)::int8 "
            + "AND x < $\(n - 6)::int8 AND y >= $\(n - 5)::int8 AND y < $\(n - 4)::int8 OFFSET 0) c "
            + "UNION ALL \(stale)"
        if let edges = use.rowsCondition(split) {
            // The rest of the window through the time's B-tree, not the key's: its rows only.
            var byTime = rest.layout
            byTime.keyIndexed = false
            let edge = PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: byTime)
                .rowStatement(units: units, space: space, firstParameters: state, condition: "\(fresh) AND \(edges)")
            sql += " UNION ALL \(edge.0)"
        }
        return (sql, parameters)
    }

    /// The cell question's statement from the time summaries at `level` (cells of 2^`level`
    /// units, summed up from level 24 when coarser), over the key ranges `$1`, `$2` with the
    /// minimum `$3`, as ``cells(_:on:)`` asks it, with the condition that the summaries hold the
    /// rows (the rows answer under its negation); `nil` when the rows answer alone.
    func timeSummaryCells(level: Int, wholeWorld: Bool, parameters: inout [String?]) -> (sql: String, fresh: String)? {
        let summarized = min(level, CellSummaries.levels.upperBound)
        guard let use = layout.timeSummaries, CellSummaries.levels.contains(summarized),
            let split = use.buckets(level: summarized)
        else { return nil }
        let rows = withFilter(use.rest).layout
        parameters += [layout.qualifiedName, use.state.built]
        let fresh = "(\(TimeSummaries.freshCondition(name: parameters.count - 1, built: parameters.count)))"
        parameters.append("\(summarized)")
        parameters += TimeSummaryUse.arrays(split)
        let n = parameters.count
        let up = level - summarized
        // The key ranges' codes at the summaries' level: a range is whole cells of it or coarser.
        let codes =
            "unnest(ARRAY(SELECT \(CellSummaries.shifted("l", by: 2 * summarized)) FROM unnest($1::int8[]) l), "
            + "ARRAY(SELECT \(CellSummaries.shifted("h", by: 2 * summarized)) FROM unnest($2::int8[]) h)) AS k(low, high)"
        var sql =
            "SELECT c.x >> \(up) AS cx, c.y >> \(up) AS cy, c.weight AS w FROM unnest($\(n - 1)::int2[], "
            + "$\(n)::int8[]) AS t(span, bucket) CROSS JOIN \(codes) CROSS JOIN LATERAL (SELECT x, y, weight FROM "
            + "\(use.state.cells) WHERE \(fresh) AND level = $\(n - 2)::int2 AND span = t.span AND bucket = t.bucket "
            + "AND key BETWEEN k.low AND k.high OFFSET 0) c"
        if let edges = use.rowsCondition(split) {
            var conditions = [
                fresh, edges, "\(rows.weight) > 0::float8", "\(rows.weight) < 'Infinity'::float8",
            ]
            if let filter = rows.filter { conditions.append("(\(filter))") }
            if !wholeWorld {
                conditions.append(
                    "EXISTS (SELECT 1 FROM unnest($1::int8[], $2::int8[]) AS k(low, high) "
                        + "WHERE r.\(rows.key) BETWEEN k.low AND k.high)")
            }
            sql +=
                " UNION ALL SELECT \(rows.x) >> \(level), \(rows.y) >> \(level), \(rows.weight) FROM \(rows.table) r "
                + "WHERE \(conditions.joined(separator: " AND "))"
        }
        return ("SELECT cx, cy, sum(w) AS w FROM (\(sql)) u GROUP BY 1, 2 HAVING sum(w) >= $3::float8", fresh)
    }

    /// This source reading `filter` as its row condition, without the time summaries.
    private func withFilter(_ filter: String?) -> PostgresSource {
        var rest = layout
        rest.filter = filter
        rest.timeSummaries = nil
        return PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: rest)
    }
}
