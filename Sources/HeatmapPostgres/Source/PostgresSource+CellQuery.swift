import HeatmapCore
import HeatmapKit

extension PostgresSource {
    /// The most key ranges one cell statement scans.
    static var maximumRanges: Int { 4096 }

    /// Whether the table answers M(z)'s cell question with a statement of its own (a key index
    /// to scan by range, one server); otherwise the cells are gathered from pixel statements.
    var answersCells: Bool { layout.keyIndexed && layout.partitionShift == nil }

    /// The answer to `query` on `connection`: one statement, from the cell summaries while they
    /// hold the level (or level 24, summed up, for coarser cells) and the current rows, else from
    /// the rows, summed per cell (a prefix of the key) in each key range of the area on its own
    /// (one B-tree range scan each); cells lighter than the minimum are left out by `HAVING`,
    /// and a limit keeps the heaviest.
    func cells(_ query: CellQuery, on connection: PostgresConnection) throws(PostgresError) -> OccupiedCells {
        let level = query.level
        var ranges: [ClosedRange<Int64>]
        if var within = query.area {
            // At most `maximumRanges` key ranges (each is a scan and a sort of its own): cells
            // 4 times coarser while there are more (a few more rows read).
            var shift = UInt64(query.areaLevel)
            while true {
                let side = shift
                ranges = KeyRanges.merged(
                    within.map { cell in
                        let low = KeyRanges.key(x: (cell & 0xFFFF_FFFF) << side, y: (cell >> 32) << side)
                        return (low, low | ((UInt64(1) << (2 * side)) &- 1))
                    })
                guard ranges.count > Self.maximumRanges, shift + 2 <= 30 else { break }
                within = Array(Set(within.map { ($0 >> 34) << 32 | ($0 & 0xFFFF_FFFF) >> 2 }))
                shift += 2
            }
        } else {
            ranges = [Int64.min...(-1), 0...Int64.max]
        }
        guard !ranges.isEmpty else { return OccupiedCells() }
        var parameters: [String?] = [
            "{" + ranges.map { "\($0.lowerBound)" }.joined(separator: ",") + "}",
            "{" + ranges.map { "\($0.upperBound)" }.joined(separator: ",") + "}", "\(query.minimum)",
        ]
        var conditions = [
            "\(layout.key) BETWEEN k.low AND k.high", "\(layout.weight) > 0::float8",
            "\(layout.weight) < 'Infinity'::float8",
        ]
        if let filter = layout.filter { conditions.append("(\(filter))") }
        func rows(_ extra: String?) -> String {
            """
            SELECT c.* FROM unnest($1::int8[], $2::int8[]) AS k(low, high) CROSS JOIN LATERAL (SELECT \
            min(\(layout.x)) >> \(level) AS cx, min(\(layout.y)) >> \(level) AS cy, sum(\(layout.weight)) AS w \
            FROM \(layout.table) WHERE \((conditions + [extra].compactMap { $0 }).joined(separator: " AND ")) \
            GROUP BY \(layout.key) >> \(2 * level) HAVING sum(\(layout.weight)) >= $3::float8 OFFSET 0) c
            """
        }
        var sql = rows(nil)
        let summarized = min(level, CellSummaries.levels.upperBound)
        if let summaries = layout.summaries, layout.filter == nil, CellSummaries.levels.contains(summarized) {
            let (fresh, stale) = summariesHold(level: summarized, parameters: &parameters)
            let codes = ranges.map { range in
                (
                    UInt64(bitPattern: range.lowerBound) >> UInt64(2 * summarized),
                    UInt64(bitPattern: range.upperBound) >> UInt64(2 * summarized)
                )
            }
            parameters.append("{" + codes.map { "\($0.0)" }.joined(separator: ",") + "}")
            parameters.append("{" + codes.map { "\($0.1)" }.joined(separator: ",") + "}")
            let (lows, highs, summaryLevel) = (parameters.count - 1, parameters.count, parameters.count - 2)
            // Cells coarser than the summaries' coarsest: theirs summed up (a cell lies in one
            // key range, as every range is whole cells of the level or coarser).
            let up = level - summarized
            let cells =
                up == 0
                ? "SELECT x AS cx, y AS cy, weight AS w FROM \(summaries) WHERE level = $\(summaryLevel)::int2 "
                    + "AND key BETWEEN k.low AND k.high AND weight >= $3::float8 AND weight > 0 AND \(fresh) OFFSET 0"
                : "SELECT x >> \(up) AS cx, y >> \(up) AS cy, sum(weight) AS w FROM \(summaries) WHERE "
                    + "level = $\(summaryLevel)::int2 AND key BETWEEN k.low AND k.high AND weight > 0 AND \(fresh) "
                    + "GROUP BY 1, 2 HAVING sum(weight) >= $3::float8 OFFSET 0"
            sql =
                "SELECT s.* FROM unnest($\(lows)::int8[], $\(highs)::int8[]) AS k(low, high) CROSS JOIN LATERAL "
                + "(\(cells)) s UNION ALL \(rows(stale))"
        }
        if let (timed, fresh) = timeSummaryCells(level: level, wholeWorld: query.area == nil, parameters: &parameters) {
            sql = "\(timed) UNION ALL \(rows("NOT \(fresh)"))"
        }
        if let limit = query.limit { sql = "SELECT * FROM (\(sql)) t ORDER BY w DESC LIMIT \(limit)" }
        // Run with the hash aggregate off (see ``Turns/sortAggregates(_:on:)``).
        let result = try connection.execute(sql, parameters, binary: true)
        if let hook = hooks.afterStatement.withLock({ $0 }) { hook() }
        var found = OccupiedCells()
        found.cells.reserveCapacity(result.rowCount)
        found.weights.reserveCapacity(result.rowCount)
        let side = Int64(1) << Int64(32 - level)
        for row in 0..<result.rowCount {
            guard let (x, y, w) = result.cell(row), x >= 0, y >= 0, x < side, y < side, w.isFinite, w >= 0 else {
                throw .invalidAnswer("a cell's position or weight is missing or outside the world")
            }
            found.cells.append(UInt64(y) << 32 | UInt64(x))
            found.weights.append(Float(roundingUp: w))
        }
        return found
    }

    /// The conditions that the summaries hold `level` and the table's current rows, and that
    /// they do not, with their two parameters appended to `parameters`: a statement reads the
    /// summaries under the first and the rows under the second, in one snapshot.
    func summariesHold(level: Int, parameters: inout [String?]) -> (fresh: String, stale: String) {
        parameters += [layout.qualifiedName, "\(level)"]
        let fresh = "(\(CellSummaries.freshCondition(parameter: parameters.count - 1, level: parameters.count)))"
        return (fresh, "NOT \(fresh)")
    }
}

extension PostgresResult {
    /// A row's (x, y, weight) of a binary result: two `int8`s and a `float8`, as every pixel
    /// and cell statement answers; `nil` when one is NULL or of another size.
    package func cell(_ row: Int) -> (x: Int64, y: Int64, weight: Double)? {
        guard let x = int64(row, 0), let y = int64(row, 1), let weight = double(row, 2) else { return nil }
        return (x, y, weight)
    }
}
