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
        let sql =
            summaryCells(
                level: level, ranges: ranges, wholeWorld: query.area == nil, parameters: &parameters, rows: rows)
            ?? windowCells(level: level, ranges: ranges) ?? rows(nil)
        let limited = query.limit.map { "SELECT * FROM (\(sql)) t ORDER BY w DESC LIMIT \($0)" } ?? sql
        // Run with the hash aggregate off (see ``Turns/sortAggregates(_:on:)``).
        let result = try connection.execute(limited, parameters, binary: true)
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
}

extension PostgresResult {
    /// A row's (x, y, weight) of a binary result: two `int8`s and a `float8`, as every pixel
    /// and cell statement answers; `nil` when one is NULL or of another size.
    package func cell(_ row: Int) -> (x: Int64, y: Int64, weight: Double)? {
        guard let x = int64(row, 0), let y = int64(row, 1), let weight = double(row, 2) else { return nil }
        return (x, y, weight)
    }
}
