import Dispatch

/// The levels of ``CellBounds`` that the search for M(z) sweeps at one zoom, scale and
/// kernel, and the bounding kernel between their cells.
struct SweepLevels {
    /// The quadtree level of the swept cells, in units.
    let cell: Int
    /// The level, in pixels, of the blocks the search refines: the largest whose blocks
    /// are no wider than a swept cell (the same squares at scales 1 and 2).
    let block: Int
    /// The largest kernel value between a pixel of a cell and a point d cells away along
    /// one axis, d = 0 ... reach (see ``CellBounds``).
    let taps: [Float]

    /// The levels of the first sweep: cells at least R + 1 pixels wide, so that the reach
    /// is one cell; `nil` when blocks that wide would not fit in the world well (coarse
    /// zooms, where the search starts from the whole world instead).
    init?(space: PixelSpace, kernel: GaussianKernel) {
        let pixelShift = UInt64(24 - space.zoom)
        let reach = UInt64(kernel.radius + 1) << pixelShift
        var cell: UInt64 = 0
        while cell < 32 && (UInt64(1) << cell) * UInt64(space.scale) < reach { cell += 1 }
        self.init(space: space, kernel: kernel, cell: Int(cell))
    }

    /// The levels for cells of 2^`cell` units; `nil` when their blocks would be wider than
    /// the world or the world too few cells wide for the loose bounds.
    init?(space: PixelSpace, kernel: GaussianKernel, cell: Int) {
        guard (0..<32).contains(cell) else { return nil }
        // A pixel is 2^pixelShift / scale units.
        let pixelShift = UInt64(24 - space.zoom)
        let scale = UInt64(space.scale)
        let r = kernel.radius
        var block: UInt64 = 0
        while UInt64(1) << (block + 1 + pixelShift) <= (UInt64(1) << UInt64(cell)) * scale { block += 1 }
        guard block <= space.zoom else { return nil }
        // The smallest pixel distance between a pixel of a cell and a point d cells away:
        // (d − 1) · 2^block + 1 where pixels are cells; where they straddle cells, a pixel
        // less than the cells between, rounded up.
        let aligned = space.pixelLevel != nil
        var taps: [Float] = [1]
        for d in 1... {
            let between = UInt64(d - 1) << UInt64(cell)
            let distance =
                aligned
                ? (d - 1) << Int(block) + 1
                : max(0, Int((between * scale + (UInt64(1) << pixelShift) - 1) >> pixelShift) - 1)
            guard distance <= r else { break }
            taps.append(kernel.taps[r + distance])
        }
        // The loose bounds reach twice as far (see MaximumSearch.searchFromCells).
        guard (UInt64(1) << UInt64(32 - cell)) > UInt64(4 * taps.count - 3) else { return nil }
        self.cell = cell
        self.block = Int(block)
        self.taps = taps
    }
}

extension MaximumSearch where Source == PointIndex {
    /// The index the sweep reads its cells from.
    var index: PointIndex { source }

    /// From ``CellBounds`` where a start allows it and the sweep fits, else from the root.
    func run(start: PointIndex.MaximumSearchStart) -> Float {
        if start != .root, let levels = SweepLevels(space: space, kernel: kernel),
            start == .cells || index.isSparse(atLevel: levels.cell)
        {
            return searchFromCells(levels: levels)
        }
        return searchFromRoot()
    }

    /// The search from ``CellBounds``: the largest intensity of the world.
    ///
    /// The largest intensity may lie in an empty cell, up to `reach` cells from the nearest
    /// occupied one, so bounds are needed for empty cells too, and there are far more of
    /// them than of occupied ones. So, in turn, with cells at least R + 1 pixels wide:
    /// 1. Greedy dives from the heaviest cells give a first best intensity.
    /// 2. A looser bound for each occupied cell holds for every cell within one cell of it
    ///    (the taps shifted out by one).
    /// 3. Only the cells beside a cell whose loose bound is above the best can beat it: each
    ///    of those gets its own bound; dives from the highest raise the best.
    /// 4. The cells still above it are split 4 × 4 and bounded again from the occupied cells
    ///    of that finer level around them, which are read from the index there alone.
    /// 5. The pixels of the fine cells still above the best are computed as tiles compute
    ///    them: the bounding rectangle of those cells in each 256 × 256 pixel region, the
    ///    rectangles split between cores.
    func searchFromCells(levels: SweepLevels) -> Float {
        let grid = CellBounds(index: index, level: levels.cell)
        guard !grid.cells.isEmpty else { return 0 }
        let margin: Float = 1 + 1e-5
        var best: Float = 0
        dive(fromHighest: grid.weights, of: grid.cells, levels: levels, best: &best)
        let shifted = (0...2).map { levels.taps[max(0, $0 - 1)] }
        let loose = grid.boundsOfOccupiedCells(taps: shifted)
        let targets = Self.neighbourhoods(
            of: loose.indices.filter { loose[$0] * margin > best }.map { grid.cells[$0] }, columns: Int(grid.columns))
        let bounds = grid.bounds(of: targets, taps: Array(levels.taps.prefix(2)))
        dive(fromHighest: bounds, of: targets, levels: levels, best: &best)
        var kept = targets.indices.filter { bounds[$0] * margin > best }.map { targets[$0] }
        var blockLevels = levels
        if let fine = SweepLevels(space: space, kernel: kernel, cell: levels.cell - 2), fine.block < levels.block,
            !kept.isEmpty
        {
            let fineGrid = CellBounds(index: index, level: fine.cell, near: kept, coarseLevel: levels.cell)
            let fineTargets = Self.split(kept, by: 4)
            let fineBounds = fineGrid.bounds(of: fineTargets, taps: fine.taps)
            dive(fromHighest: fineBounds, of: fineTargets, levels: fine, best: &best)
            kept = fineTargets.indices.filter { fineBounds[$0] * margin > best }.map { fineTargets[$0] }
            blockLevels = fine
        }
        // What is left is computed to the pixel, a few large rectangles rather than many
        // small blocks: the bounding box of the blocks left in each 256 × 256 pixel region.
        var regions: [SIMD2<Int>: PixelRect] = [:]
        let blockSize = 1 << blockLevels.block
        for cell in kept {
            forEachBlock(of: cell, levels: blockLevels) { x, y in
                let block = PixelRect(x: x * blockSize, y: y * blockSize, width: blockSize, height: blockSize)
                let key = SIMD2(block.x >> Self.regionLevel, block.y >> Self.regionLevel)
                regions[key] = regions[key].map { $0.union(block) } ?? block
            }
        }
        let rects = regions.sorted { ($0.key.y, $0.key.x) < ($1.key.y, $1.key.x) }.map(\.value)
        let found = maximum(in: rects)
        return max(best, found)
    }

    /// How many greedy dives follow each sweep.
    static var sweepDives: Int { 256 }

    /// Raises `best` by greedy dives from the blocks of the cells with the highest values.
    func dive(fromHighest values: [Float], of cells: [UInt64], levels: SweepLevels, best: inout Float) {
        for i in Self.highest(Self.sweepDives, of: values) {
            forEachBlock(of: cells[i], levels: levels) { x, y in
                best = max(best, dive(from: Candidate(bound: .infinity, level: levels.block, x: x, y: y)))
            }
        }
    }

    /// Pixels are computed in rectangles of at most 2^regionLevel pixels a side.
    static var regionLevel: Int { 8 }

    /// The largest intensity of the pixels of `rects`, computed as tiles compute them; the
    /// rectangles are shared between the cores.
    func maximum(in rects: [PixelRect]) -> Float {
        let parts = rects.count >= 2 ? 2 : 1
        nonisolated(unsafe) var found = [Float](repeating: 0, count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var local: Float = 0
            for i in stride(from: part, to: rects.count, by: parts) {
                local = max(
                    local, index.convolved(in: rects[i], space: space, taps: kernel.taps, reach: kernel.radius).maximum)
            }
            found[part] = local
        }
        return found.max() ?? 0
    }

    /// Calls `body` with each block (column, row, in blocks of the level) that holds a pixel
    /// of a packed cell: one at scales 1 and 2, up to four at scale 3.
    private func forEachBlock(of cell: UInt64, levels: SweepLevels, _ body: (Int, Int) -> Void) {
        let (x, y) = CellBounds.position(cell)
        let shift = UInt64(levels.cell)
        let x0 = space.pixel(ofUnit: x << shift) >> levels.block
        let x1 = space.pixel(ofUnit: ((x + 1) << shift) - 1) >> levels.block
        let y0 = space.pixel(ofUnit: y << shift) >> levels.block
        let y1 = space.pixel(ofUnit: ((y + 1) << shift) - 1) >> levels.block
        for by in y0...y1 {
            for bx in x0...x1 { body(bx, by) }
        }
    }
}
