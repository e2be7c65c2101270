import HeatmapKit

extension PostgresSource {
    /// The most key ranges one statement of ``cellWeights(level:within:withinLevel:minimum:limit:on:)`` scans.
    static var maximumRanges: Int { 4096 }

    /// The cells of `level` (2^level units) of weight at least `minimum`, heaviest first when
    /// `limit` is given (then at most `limit` of them): in the whole world, or in the cells
    /// `within` (packed `row << 32 | column`) of the coarser `withinLevel`. One statement: from
    /// the cell summaries while they hold this level and the current rows, else from the
    /// rows, summed per cell (a prefix of the key) in each key range of the area on its own
    /// (one B-tree range scan each).
    func cellWeights(
        level: Int, within: [UInt64]? = nil, withinLevel: Int = 0, minimum: Double, limit: Int? = nil,
        on connection: PostgresConnection
    ) throws(PostgresError) -> [(x: UInt64, y: UInt64, weight: Double)] {
        var ranges: [ClosedRange<Int64>]
        if var within {
            // At most `maximumRanges` key ranges (each is a scan and a hash table of its own):
            // cells 4 times coarser while there are more (a few more rows read).
            var shift = UInt64(withinLevel)
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
        guard !ranges.isEmpty else { return [] }
        var parameters: [String?] = [
            "{" + ranges.map { "\($0.lowerBound)" }.joined(separator: ",") + "}",
            "{" + ranges.map { "\($0.upperBound)" }.joined(separator: ",") + "}", "\(minimum)",
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
        if let summaries = layout.summaries, layout.filter == nil, CellSummaries.levels.contains(level) {
            // The summaries while they hold this level and the current rows, else the rows.
            let fresh = "(\(CellSummaries.freshCondition(parameter: 4, level: 5)))"
            parameters += [layout.qualifiedName, "\(level)"]
            let codes = ranges.map { range in
                (
                    UInt64(bitPattern: range.lowerBound) >> UInt64(2 * level),
                    UInt64(bitPattern: range.upperBound) >> UInt64(2 * level)
                )
            }
            parameters.append("{" + codes.map { "\($0.0)" }.joined(separator: ",") + "}")
            parameters.append("{" + codes.map { "\($0.1)" }.joined(separator: ",") + "}")
            sql = """
                SELECT s.* FROM unnest($6::int8[], $7::int8[]) AS k(low, high) CROSS JOIN LATERAL (SELECT x AS cx, \
                y AS cy, weight AS w FROM \(summaries) WHERE level = $5::int2 AND key BETWEEN k.low AND k.high \
                AND weight >= $3::float8 AND weight > 0 AND \(fresh) OFFSET 0) s UNION ALL \(rows("NOT \(fresh)"))
                """
        }
        if let limit { sql = "SELECT * FROM (\(sql)) t ORDER BY w DESC LIMIT \(limit)" }
        // Grouped by the key's prefix, the rows of a range come in the B-tree's order already:
        // a sorted aggregate (a sort of sorted rows) is about twice as fast as hashing them.
        let setting = try connection.execute(
            "SELECT current_setting('enable_hashagg'), set_config('work_mem', '64MB', true), "
                + "set_config('enable_hashagg', 'off', true)")
        let result = try connection.execute(sql, parameters, binary: true)
        try connection.execute("SELECT set_config('enable_hashagg', $1, true)", [setting.text(0, 0) ?? "on"])
        if let hook = hooks.afterStatement.withLock({ $0 }) { hook() }
        var found: [(x: UInt64, y: UInt64, weight: Double)] = []
        found.reserveCapacity(result.rowCount)
        let side = Int64(1) << Int64(32 - level)
        for row in 0..<result.rowCount {
            guard let x = result.int64(row, 0), let y = result.int64(row, 1), let w = result.double(row, 2), x >= 0,
                y >= 0, x < side, y < side, w.isFinite, w >= 0
            else { throw .invalidAnswer("a cell's position or weight is missing or outside the world") }
            found.append((UInt64(x), UInt64(y), w))
        }
        return found
    }
}
