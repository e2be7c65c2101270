import HeatmapCore
import HeatmapKit

/// M(z) at fine zooms from cells the B-tree sums, bounded by the kernel's shape.
///
/// For cells of a level (see ``KernelBound``), a pixel's intensity is at most the sum over the
/// cells within the kernel's reach of weight × the kernel at the smallest distance between
/// the two cells: not weight × 1, so at fine levels the bound is within a few times the
/// kernel's own sum. The search goes from coarse cells (the summaries' where they hold the
/// level) to cells of about 4 pixels, each level 16 times finer, and reads a finer level's
/// cells only in the coarse cells around those whose bound is above the best intensity found
/// so far; cells lighter than a threshold θ are not returned (a half of the best over the
/// taps' sum at cells of 16 pixels or more, an eighth finer) (each adds at most θ × the taps'
/// sum, added to every bound). A lower bound comes first, from dives into the heaviest
/// coarse cells; the pixels of the fine cells left are then searched exactly, region by
/// region, highest bound first (``regionMaximum(columns:rows:space:kernel:on:)``). Every
/// pixel not searched is no brighter than the best found, so that is M(z), exact.
extension PostgresSource {
    /// Coarse cells are refined in regions of at most 2^regionLevel cells a side.
    static var kernelRegionLevel: Int { 8 }

    /// M(z) by the kernel-bounded search, every statement on `connection`, with where it was
    /// found (a pixel rectangle holding a pixel of that intensity); `nil` when the zoom has no
    /// plan (the search from the root then).
    func kernelMaximum(space: PixelSpace, kernel: GaussianKernel, on connection: PostgresConnection)
        throws(PostgresError) -> (value: Float, place: PixelRect?)?
    {
        let finest = layout.summaries != nil && layout.filter == nil ? try summaryFinest(on: connection) : nil
        guard let plan = KernelBound(space: space, kernel: kernel, summaryFinest: finest) else { return nil }
        var search = KernelSearch(source: self, space: space, kernel: kernel, plan: plan, connection: connection)
        return try search.run(summarized: finest.map { $0 <= plan.levels[0] } ?? false)
    }

    /// The finest level of the table's summaries, `nil` without them.
    func summaryFinest(on connection: PostgresConnection) throws(PostgresError) -> Int? {
        let result = try connection.execute(
            "SELECT finest FROM heatmap_summaries WHERE table_name = $1", [layout.qualifiedName])
        return result.text(0, 0).flatMap { Int($0) }
    }
}

/// One run of the kernel-bounded search.
struct KernelSearch {
    let source: PostgresSource
    let space: PixelSpace
    let kernel: GaussianKernel
    let plan: KernelBound
    let connection: PostgresConnection
    /// Bounds are raised by this factor before they are compared, so that float rounding
    /// never drops the true maximum.
    let margin: Float = 1 + 1e-3
    var best: Float = 0
    var place: PixelRect?
    /// The pixels searched exactly so far (columns may run past the world's edges): none
    /// brighter than the best.
    var searched: [(columns: ClosedRange<Int>, rows: ClosedRange<Int>)] = []

    init(
        source: PostgresSource, space: PixelSpace, kernel: GaussianKernel, plan: KernelBound,
        connection: PostgresConnection
    ) {
        self.source = source
        self.space = space
        self.kernel = kernel
        self.plan = plan
        self.connection = connection
    }

    /// The search; `summarized` when the coarsest level comes from the summaries (cheap to
    /// rank, so the dives come first and the first level is read above a threshold).
    mutating func run(summarized: Bool) throws(PostgresError) -> (value: Float, place: PixelRect?) {
        let coarse = plan.levels[0]
        var first: [(x: UInt64, y: UInt64, weight: Double)]
        if summarized {
            let top = try heaviestCells(level: coarse)
            guard !top.isEmpty else { return (0, nil) }
            try dive(from: top)
            first = try source.cellWeights(level: coarse, minimum: threshold(0), on: connection)
        } else {
            first = try source.cellWeights(level: coarse, minimum: 0, on: connection)
            guard !first.isEmpty else { return (0, nil) }
            try dive(from: Array(first.sorted(by: { $0.weight > $1.weight }).prefix(3)))
        }
        // Level 0: every cell within reach of a cell returned.
        var cells = CellWeights(first)
        let reach = KernelBound.reach(plan.taps[0])
        var targets: [UInt64: PixelRect] = [:]
        let columns = Int(1) << (32 - coarse)
        for cell in first {
            let rect = PixelRect(
                x: Int(cell.x) - reach, y: Int(cell.y) - reach, width: 2 * reach + 1, height: 2 * reach + 1)
            let key = Self.regionKey(x: cell.x, y: cell.y)
            targets[key] = targets[key].map { Self.union($0, rect) } ?? rect
        }
        var survivors = try bounded(cells, level: 0, rects: Array(targets.values), parents: nil, columns: columns)
        for stage in 1..<plan.levels.count {
            guard !survivors.isEmpty else { break }
            let level = plan.levels[stage]
            let parentLevel = plan.levels[stage - 1]
            let factor = 1 << (parentLevel - level)
            // The coarse cells within the finer reach of a survivor hold every cell its bound needs.
            let reachUnits = KernelBound.reach(plan.taps[stage]) << level
            let around = max(1, (reachUnits + (1 << parentLevel) - 1) >> parentLevel)
            let area = Self.neighbourhood(of: survivors.keys, reach: around, columns: 1 << (32 - parentLevel))
            cells = CellWeights(
                try source.cellWeights(
                    level: level, within: area, withinLevel: parentLevel, minimum: threshold(stage),
                    on: connection))
            var rects: [UInt64: PixelRect] = [:]
            for parent in survivors.keys {
                let rect = PixelRect(
                    x: Int(parent & 0xFFFF_FFFF) * factor, y: Int(parent >> 32) * factor, width: factor,
                    height: factor)
                let key = Self.regionKey(x: UInt64(rect.x), y: UInt64(rect.y))
                rects[key] = rects[key].map { Self.union($0, rect) } ?? rect
            }
            survivors = try bounded(
                cells, level: stage, rects: Array(rects.values), parents: (Set(survivors.keys), factor),
                columns: 1 << (32 - level))
        }
        try searchPixels(of: survivors, level: plan.levels[plan.levels.count - 1])
        return (best, place)
    }

    typealias Source = PostgresSource

    /// θ of a stage: cells lighter than it are not returned.
    func threshold(_ stage: Int) -> Double {
        let share = plan.levels[stage] >= plan.firstFine ? 0.5 : 1.0 / 8
        return Double(best) * share / KernelBound.area(plan.taps[stage])
    }

    /// The cells of `rects` (in cells of the stage's level; columns may run past the world's
    /// edges) whose bound is above the best, with their bounds; with `parents`, only the
    /// children of those (packed cells of the level `factor` times coarser).
    func bounded(
        _ cells: CellWeights, level stage: Int, rects: [PixelRect], parents: (Set<UInt64>, Int)?, columns: Int
    ) throws(PostgresError) -> [UInt64: Float] {
        let level = plan.levels[stage]
        guard let cellSpace = try? PixelSpace(zoom: 24 - level, scale: 1) else {
            throw .invalidAnswer("no cell space for level \(level)")
        }
        let unreturned = Float(threshold(stage) * KernelBound.area(plan.taps[stage]))
        var found: [UInt64: Float] = [:]
        for rect in rects {
            let clipped = PixelRect(
                x: rect.x, y: max(0, rect.y), width: rect.width,
                height: min(columns, rect.y + rect.height) - max(0, rect.y))
            guard clipped.height > 0 else { continue }
            let grid = cells.convolved(in: clipped, space: cellSpace, boundTaps: plan.taps[stage])
            guard !grid.isEmpty else { continue }
            for j in 0..<grid.height {
                for i in 0..<grid.width {
                    let bound = grid[i, j] + unreturned
                    guard bound * margin > best else { continue }
                    let x = UInt64(((clipped.x + i) % columns + columns) % columns)
                    let y = UInt64(clipped.y + j)
                    if let (set, factor) = parents {
                        let parent = (y / UInt64(factor)) << 32 | x / UInt64(factor)
                        guard set.contains(parent) else { continue }
                    }
                    found[y << 32 | x] = max(found[y << 32 | x] ?? 0, bound)
                }
            }
        }
        return found
    }

    /// The region of cell `x`, `y` (regions of 2^kernelRegionLevel cells a side), packed.
    static func regionKey(x: UInt64, y: UInt64) -> UInt64 {
        let shift = UInt64(PostgresSource.kernelRegionLevel)
        return (y >> shift) << 32 | (x >> shift)
    }

    /// The smallest rectangle holding both.
    static func union(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let x0 = min(a.x, b.x)
        let y0 = min(a.y, b.y)
        return PixelRect(
            x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0,
            height: max(a.y + a.height, b.y + b.height) - y0)
    }

    /// Follows the heaviest cell of each finer level down from each of `cells` (of the
    /// coarsest level), then searches the pixels around the heaviest fine cell reached (one
    /// pixel search, the costly part where a fine cell lies in a dense cluster): raises the best.
    mutating func dive(from cells: [(x: UInt64, y: UInt64, weight: Double)]) throws(PostgresError) {
        var reached: [(x: UInt64, y: UInt64, weight: Double)] = []
        for cell in cells {
            var current: (x: UInt64, y: UInt64, weight: Double)? = cell
            for stage in 1..<plan.levels.count {
                guard let parent = current else { break }
                current = try source.cellWeights(
                    level: plan.levels[stage], within: [parent.y << 32 | parent.x],
                    withinLevel: plan.levels[stage - 1], minimum: 0, limit: 1, on: connection
                ).first
            }
            if let current { reached.append(current) }
        }
        guard let current = reached.max(by: { $0.weight < $1.weight }) else { return }
        let level = UInt64(plan.levels[plan.levels.count - 1])
        let columns = space.pixel(ofUnit: current.x << level)...space.pixel(ofUnit: ((current.x + 1) << level) - 1)
        let rows = space.pixel(ofUnit: current.y << level)...space.pixel(ofUnit: ((current.y + 1) << level) - 1)
        try search(
            columns: (columns.lowerBound - kernel.radius)...(columns.upperBound + kernel.radius),
            rows: max(0, rows.lowerBound - kernel.radius)...min(space.worldSize - 1, rows.upperBound + kernel.radius))
    }

    /// The exact search of the pixels `columns` × `rows` (columns may run past the world's
    /// edges): raises the best, and notes where.
    mutating func search(columns: ClosedRange<Int>, rows: ClosedRange<Int>) throws(PostgresError) {
        let found = try source.pixelMaximum(columns: columns, rows: rows, space: space, kernel: kernel, on: connection)
        searched.append((columns, rows))
        if found > best {
            best = found
            place = PixelRect(
                x: columns.lowerBound - kernel.radius, y: rows.lowerBound - kernel.radius,
                width: columns.count + 2 * kernel.radius, height: rows.count + 2 * kernel.radius)
        }
    }

    /// Whether every pixel of `columns` × `rows` (inside the world) lies in one area searched
    /// exactly already.
    func isSearched(columns: ClosedRange<Int>, rows: ClosedRange<Int>) -> Bool {
        let world = space.worldSize
        return searched.contains { area in
            area.rows.contains(rows.lowerBound) && area.rows.contains(rows.upperBound)
                && [-world, 0, world].contains { copy in
                    area.columns.contains(columns.lowerBound + copy) && area.columns.contains(columns.upperBound + copy)
                }
        }
    }

    /// Searches the pixels of the fine cells left, in regions of at most 256 pixels a side,
    /// highest bound first, each while its bound is above the best.
    mutating func searchPixels(of cells: [UInt64: Float], level: Int) throws(PostgresError) {
        let shift = UInt64(level)
        var regions: [UInt64: (columns: ClosedRange<Int>, rows: ClosedRange<Int>, bound: Float)] = [:]
        for (cell, bound) in cells {
            let x = cell & 0xFFFF_FFFF
            let y = cell >> 32
            let columns = space.pixel(ofUnit: x << shift)...space.pixel(ofUnit: ((x + 1) << shift) - 1)
            let rows = space.pixel(ofUnit: y << shift)...space.pixel(ofUnit: ((y + 1) << shift) - 1)
            // Pixels a dive searched already are no brighter than the best.
            guard !isSearched(columns: columns, rows: rows) else { continue }
            let key = UInt64(rows.lowerBound >> 8) << 32 | UInt64(columns.lowerBound >> 8)
            if let old = regions[key] {
                regions[key] = (
                    min(old.columns.lowerBound, columns.lowerBound)...max(old.columns.upperBound, columns.upperBound),
                    min(old.rows.lowerBound, rows.lowerBound)...max(old.rows.upperBound, rows.upperBound),
                    max(old.bound, bound)
                )
            } else {
                regions[key] = (columns, rows, bound)
            }
        }
        let ordered = regions.sorted { ($0.value.bound, $1.key) > ($1.value.bound, $0.key) }
        for (_, region) in ordered where region.bound * margin > best {
            try search(columns: region.columns, rows: region.rows)
        }
    }
}
