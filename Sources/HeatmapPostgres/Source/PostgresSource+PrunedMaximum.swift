import HeatmapCore
import HeatmapKit

/// M(z) at fine zooms without reading every pixel of the world: a bound from coarse cells
/// prunes the regional search.
///
/// A pixel's intensity is at most the weight inside its window (the kernel is at most 1), and
/// a window of 2R + 1 pixels meets at most 2 × 2 cells at least 2R pixels wide. So a pixel
/// brighter than a found intensity `best` lies within R pixels of a cell heavier than
/// `best / 4`. The cells' weights come in one `GROUP BY` (from the cell summaries where
/// they hold the level and the current rows, else from the rows), heaviest first. The blocks
/// of 4 × 4 cells around the heaviest are searched exactly first, which gives `best`; then
/// the blocks around every cell heavier than `best / 4`, gathered by 8 × 8 blocks into one
/// rectangle each (one statement, one stand-in search, see
/// ``regionMaximum(cells:space:kernel:on:)``). Every pixel not searched is then no brighter
/// than `best`, so the largest found is M(z), exact.
extension PostgresSource {
    /// The share of the heaviest cell's weight above which the first statement returns cells;
    /// when the bound ends lower, a second statement returns the cells down to it.
    static var prunedFirstShare: Double { 1.0 / 64 }

    /// M(z) by the pruned regional search, every statement on `connection`; `nil` when the
    /// kernel reaches too far for cells of the search's sizes (the search from the root then).
    func prunedMaximum(space: PixelSpace, kernel: GaussianKernel, on connection: PostgresConnection)
        throws(PostgresError) -> Float?
    {
        // Cells of 2^level units, at least 2R pixels wide (a pixel is 2^(24 - zoom) / scale units).
        let unitsPerPixel = Double(UInt64(1) << UInt64(24 - space.zoom)) / Double(space.scale)
        var level = 24 - space.zoom
        while level < 29, Double(UInt64(1) << UInt64(level)) / unitsPerPixel < Double(2 * kernel.radius) {
            level += 1
        }
        guard Double(UInt64(1) << UInt64(level)) / unitsPerPixel >= Double(2 * kernel.radius) else { return nil }
        let blockShift: UInt64 = 2
        let groupShift: UInt64 = 3
        let margin: Double = 1 - 1e-4
        var cells = try heavyCells(level: level, minimum: nil, on: connection)
        guard let heaviest = cells.first?.weight, heaviest > 0 else { return 0 }
        let perSide = Int64(1) << Int64(32 - level)
        // The blocks (of 2^blockShift cells a side) holding a cell and its 8 neighbours
        // (columns wrap, rows stop at the poles).
        func blocks(around cell: (x: UInt64, y: UInt64, weight: Double)) -> [UInt64] {
            var found: [UInt64] = []
            for dy in Int64(-1)...1 {
                let y = Int64(cell.y) + dy
                guard y >= 0, y < perSide else { continue }
                for dx in Int64(-1)...1 {
                    let x = (Int64(cell.x) + dx + perSide) % perSide
                    found.append((UInt64(y) >> blockShift) << 32 | UInt64(x) >> blockShift)
                }
            }
            return found
        }
        let blockLevel = level + Int(blockShift)
        var searched = Set<UInt64>()
        var best: Float = 0
        for block in Set(blocks(around: cells[0])) {
            searched.insert(block)
            best = max(
                best,
                try regionMaximum(
                    level: blockLevel, cx: block & 0xFFFF_FFFF, cy: block >> 32, space: space, kernel: kernel,
                    on: connection))
        }
        let needed = Double(best) / 4 * margin
        if needed < heaviest * Self.prunedFirstShare {
            cells = try heavyCells(level: level, minimum: needed, on: connection)
        }
        // The blocks left around the heavy cells, gathered by groups of 2^groupShift blocks a side.
        var groups: [UInt64: (columns: ClosedRange<UInt64>, rows: ClosedRange<UInt64>)] = [:]
        for cell in cells where cell.weight > needed {
            for block in blocks(around: cell) where searched.insert(block).inserted {
                let bx = block & 0xFFFF_FFFF
                let by = block >> 32
                let key = (by >> groupShift) << 32 | bx >> groupShift
                if let old = groups[key] {
                    groups[key] = (
                        min(old.columns.lowerBound, bx)...max(old.columns.upperBound, bx),
                        min(old.rows.lowerBound, by)...max(old.rows.upperBound, by)
                    )
                } else {
                    groups[key] = (bx...bx, by...by)
                }
            }
        }
        for key in groups.keys.sorted() {
            guard let group = groups[key] else { continue }
            best = max(
                best,
                try regionMaximum(
                    cells: (blockLevel, group.columns, group.rows), space: space, kernel: kernel, on: connection))
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
