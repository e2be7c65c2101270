import HeatmapKit

/// M(z) at fine zooms without reading every pixel of the world: a bound from coarse cells
/// prunes the regional search.
///
/// A pixel's intensity is at most the weight inside its window (the kernel is at most 1), and
/// a window of 2R + 1 pixels meets at most 2 × 2 cells at least 2R pixels wide. So a pixel
/// brighter than a found intensity `best` lies within R pixels of a cell heavier than
/// `best / 4`. The cells' weights come in one `GROUP BY` (from the cell summaries where
/// they hold the level and the current rows, else from the rows), heaviest first; the blocks
/// of 4 × 4 cells around each heavy cell are searched exactly (``regionMaximum(level:cx:cy:space:kernel:on:)``),
/// raising `best` as they go, until the next cell is not heavier than `best / 4`: every pixel
/// not searched is then no brighter than `best`, which is M(z), exact.
extension PostgresSource {
    /// The share of the heaviest cell's weight above which the first statement returns cells;
    /// when the bound ends lower, a second statement returns the cells down to it.
    static var prunedFirstShare: Double { 1.0 / 16 }

    /// M(z) by the pruned regional search; every statement on `connection`.
    func prunedMaximum(space: PixelSpace, kernel: GaussianKernel, on connection: PostgresConnection)
        throws(PostgresError) -> Float
    {
        // Cells of 2^level units, at least 2R pixels wide (a pixel is 2^(24 - zoom) / scale units).
        let unitsPerPixel = Double(UInt64(1) << UInt64(24 - space.zoom)) / Double(space.scale)
        var level = 24 - space.zoom
        while level < 30, Double(UInt64(1) << UInt64(level)) / unitsPerPixel < Double(2 * kernel.radius) {
            level += 1
        }
        let blockLevel = min(level + 2, 31)
        let margin: Double = 1 - 1e-4
        var cells = try heavyCells(level: level, minimum: nil, on: connection)
        guard let heaviest = cells.first?.weight, heaviest > 0 else { return 0 }
        var fetchedDownTo = heaviest * Self.prunedFirstShare
        var best: Float = 0
        var searched = Set<UInt64>()
        let blocksPerSide = UInt64(1) << UInt64(32 - blockLevel)
        var seen = Set<UInt64>()
        var index = 0
        while true {
            if index == cells.count {
                // Every cell returned was searched around: the rest are lighter than `fetchedDownTo`.
                let needed = Double(best) / 4 * margin
                guard needed < fetchedDownTo else { break }
                cells = try heavyCells(level: level, minimum: needed, on: connection)
                    .filter { !seen.contains($0.x << 32 | $0.y) }
                fetchedDownTo = needed
                index = 0
                if cells.isEmpty { break }
                continue
            }
            let cell = cells[index]
            // Heaviest first: from a cell no heavier than the bound on, none of the list is.
            guard cell.weight > Double(best) / 4 * margin else {
                index = cells.count
                continue
            }
            index += 1
            seen.insert(cell.x << 32 | cell.y)
            // The blocks holding the cell and its 8 neighbours (columns wrap, rows stop at the poles).
            let shift = UInt64(blockLevel - level)
            let perSide = UInt64(1) << UInt64(32 - level)
            for dy in -1...1 {
                let y = Int64(cell.y) + Int64(dy)
                guard y >= 0, y < Int64(perSide) else { continue }
                for dx in -1...1 {
                    let x = (Int64(cell.x) + Int64(dx) + Int64(perSide)) % Int64(perSide)
                    let bx = UInt64(x) >> shift
                    let by = UInt64(y) >> shift
                    guard searched.insert(by * blocksPerSide + bx).inserted else { continue }
                    best = max(
                        best,
                        try regionMaximum(
                            level: blockLevel, cx: bx, cy: by, space: space, kernel: kernel, on: connection))
                }
            }
        }
        return best
    }

    /// The cells of `level` (2^level units), heaviest first: those of weight at least
    /// `minimum`, or without it those of at least ``prunedFirstShare`` of the heaviest's.
    func heavyCells(level: Int, minimum: Double?, on connection: PostgresConnection) throws(PostgresError)
        -> [(x: UInt64, y: UInt64, weight: Double)]
    {
        var conditions = ["\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8"]
        if let filter = layout.filter { conditions.append("(\(filter))") }
        var parameters: [String?] = []
        var rows =
            "SELECT \(layout.x) >> \(level) AS cx, \(layout.y) >> \(level) AS cy, sum(\(layout.weight)) AS w "
            + "FROM \(layout.table) WHERE \(conditions.joined(separator: " AND ")) GROUP BY 1, 2"
        var cells = rows
        if let summaries = layout.summaries, layout.filter == nil, CellSummaries.levels.contains(level) {
            // The summaries while they hold this level and the current rows, else the rows.
            parameters = [layout.qualifiedName, "\(level)"]
            let fresh = "(\(CellSummaries.freshCondition(parameter: 1, level: 2)))"
            rows = "SELECT * FROM (\(rows)) r WHERE NOT \(fresh)"
            cells =
                "SELECT x AS cx, y AS cy, weight AS w FROM \(summaries) WHERE level = $2::int2 AND \(fresh) "
                + "AND weight > 0 UNION ALL \(rows)"
        }
        let sql: String
        if let minimum {
            parameters.append("\(minimum)")
            sql = "SELECT cx, cy, w FROM (\(cells)) c WHERE w >= $\(parameters.count)::float8 ORDER BY w DESC"
        } else {
            parameters.append("\(Self.prunedFirstShare)")
            sql = """
                WITH c AS MATERIALIZED (\(cells)) SELECT cx, cy, w FROM c \
                WHERE w >= $\(parameters.count)::float8 * (SELECT max(w) FROM c) ORDER BY w DESC
                """
        }
        try connection.execute("SELECT set_config('work_mem', '128MB', true)")
        let result = try connection.execute(sql, parameters, binary: true)
        if let hook = hooks.afterStatement.withLock({ $0 }) { hook() }
        var found: [(x: UInt64, y: UInt64, weight: Double)] = []
        found.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount {
            guard let x = result.int64(row, 0), let y = result.int64(row, 1), let w = result.double(row, 2), x >= 0,
                y >= 0, x < 1 << 32, y < 1 << 32
            else { throw .invalidAnswer("a cell's position or weight is missing") }
            found.append((UInt64(x), UInt64(y), w))
        }
        return found
    }
}
