import Dispatch

/// M(z): the largest intensity of any pixel of the world at a zoom and scale, the normalisation
/// value that gives every tile of the zoom one colour scale. The one search, over any
/// ``CellSource``; exact and deterministic (the tiles' largest pixel, bit for bit), 0 when no
/// point has positive weight.
///
/// Branch and bound over the levels of ``MaximumPlan``, coarse to fine:
/// 1. **Dives**: from a few heavy cells, down the heaviest few cells of each finer level (fewer
///    levels where a question costs a round trip, see ``CellCosts/questionCells``), then the
///    pixels of the cell reached whose bound is highest, computed as tiles compute them: a
///    first best intensity.
/// 2. **Sweep**, level by level: the occupied cells of the level (the whole world first, then
///    only around the cells left by the level before), each bound from the cells within reach
///    (see ``CellBounds``). The largest intensity may lie in an empty cell beside an occupied
///    one, so the cells bounded are the children of those left, or, where those are many, the
///    cells within reach of an occupied cell whose looser bound (the taps shifted out by the
///    reach, which holds for every cell within reach of it) is above the best. A cell is left
///    while its bound, raised by the margin, is above the best.
/// 3. **Exact regions**: the pixels of the cells left at the last level, in rectangles of at
///    most 256 pixels a side (neighbours joined where that reads no more), highest bound
///    first, computed as tiles compute them, while a bound is above the best.
/// Every pixel not computed is then no brighter than the best found, which is M(z).
///
/// A source that reads its cells from rows (a database) is asked for fewer cells: cells
/// lighter than θ, a share of the best over the taps' sum (see ``MaximumPlan/Stage``), are
/// left out, and each bound adds what they may hold, θ times the taps' sum.
///
/// - Complexity: from the index, O(c log(n / c)) for the c occupied cells of the first level,
///   plus those read around the cells left, plus the pixels of the regions left, convolved.
package enum MaximumSearch {
    /// M(z) from `source`'s cells and pixels, and where it lies.
    package static func run<Source: CellSource>(over source: Source, space: PixelSpace, kernel: GaussianKernel)
        throws(Source.Failure) -> MaximumFound
    {
        let plan = MaximumPlan(space: space, kernel: kernel, costs: source.cellCosts)
        var search = Run(source: source, space: space, kernel: kernel, plan: plan)
        try search.run()
        return MaximumFound(value: search.best, place: search.best > 0 ? search.place : nil)
    }

    /// Pixels are computed in rectangles of at most 2^regionLevel pixels a side.
    static var regionLevel: Int { 8 }
}

extension MaximumSearch {
    /// One run of the search.
    struct Run<Source: CellSource> {
        let source: Source
        let space: PixelSpace
        let kernel: GaussianKernel
        let plan: MaximumPlan
        /// The largest intensity computed so far, and the rectangle that holds it.
        var best: Float = 0
        var place: PixelRect?
        /// The rectangles computed so far (columns may run past the world's edges).
        var searched: [PixelRect] = []

        init(source: Source, space: PixelSpace, kernel: GaussianKernel, plan: MaximumPlan) {
            self.source = source
            self.space = space
            self.kernel = kernel
            self.plan = plan
        }

        var isRemote: Bool { source.cellCosts.isRemote }
        /// How many dives start: few where each question is a round trip.
        var dives: Int { isRemote ? 3 : 8 }

        mutating func run() throws(Source.Failure) {
            guard let last = plan.stages.last else {
                // A kernel about as wide as the world: every pixel.
                let world = space.worldSize
                let side = 1 << MaximumSearch.regionLevel
                var rects: [PixelRect] = []
                for y in stride(from: 0, to: world, by: side) {
                    for x in stride(from: 0, to: world, by: side) {
                        rects.append(PixelRect(x: x, y: y, width: min(side, world - x), height: min(side, world - y)))
                    }
                }
                try compute(rects)
                return
            }
            if let level = plan.diveLevel {
                // The heaviest cells of the first level (inside the heaviest of the ranked level).
                let first = plan.stages[0].level
                var starts = try source.occupiedCells(CellQuery(level: level, limit: dives))
                if level > first {
                    starts = try source.occupiedCells(
                        CellQuery(level: first, area: starts.cells.sorted(), areaLevel: level, limit: dives))
                }
                try dive(from: starts, level: first)
            }
            var survivors: [UInt64] = []
            var bounds: [Float] = []
            for (i, stage) in plan.stages.enumerated() {
                let minimum = threshold(stage)
                var query = CellQuery(level: stage.level, minimum: minimum)
                var parents: (cells: [UInt64], shift: Int)?
                if i > 0 {
                    let previous = plan.stages[i - 1]
                    // The coarse cells within the finer reach of a cell left hold every cell its
                    // children's bounds need.
                    let around = ((stage.reach << stage.level) + (1 << previous.level) - 1) >> previous.level
                    query.area = MaximumSearch.neighbourhoods(
                        of: survivors, reach: around, columns: 1 << (32 - previous.level))
                    query.areaLevel = previous.level
                    parents = (survivors, previous.level - stage.level)
                }
                let grid = CellBounds(try source.occupiedCells(query), level: stage.level)
                if i == 0 && plan.diveLevel == nil {
                    let top = MaximumSearch.highest(dives, of: grid.weights)
                    try dive(
                        from: OccupiedCells(cells: top.map { grid.cells[$0] }, weights: top.map { grid.weights[$0] }),
                        level: stage.level)
                }
                (survivors, bounds) = bounded(grid, stage: stage, minimum: minimum, parents: parents)
                if survivors.isEmpty { return }
            }
            try computeRegions(of: survivors, bounds: bounds, stage: last)
        }

        /// θ of a level: cells lighter are not asked for (from a remote source only).
        func threshold(_ stage: MaximumPlan.Stage) -> Double {
            isRemote ? Double(best) * stage.share / stage.area : 0
        }

        /// The cells whose bound is above the best, ascending, and their bounds: the children of
        /// `parents` (`shift` levels coarser), or the cells within reach of an occupied cell whose
        /// loose bound is above the best (those among the children of `parents` when given),
        /// whichever list is shorter.
        func bounded(
            _ grid: CellBounds, stage: MaximumPlan.Stage, minimum: Double, parents: (cells: [UInt64], shift: Int)?
        ) -> (cells: [UInt64], bounds: [Float]) {
            let reach = stage.reach
            // What cells left out may add to a bound.
            let slack = Float(roundingUp: minimum * stage.area)
            var targets: [UInt64]
            if let parents,
                parents.cells.count << (2 * parents.shift) <= (2 * reach + 1) * (2 * reach + 1) * grid.cells.count
            {
                targets = MaximumSearch.split(parents.cells, by: 1 << UInt64(parents.shift))
            } else {
                let loose = grid.boundsOfOccupiedCells(taps: (0...(2 * reach)).map { stage.taps[max(0, $0 - reach)] })
                let margin = plan.margin(additions: (4 * reach + 1) * (4 * reach + 1) + 1)
                let heavy = loose.indices.filter { (loose[$0] + slack) * margin > best }.map { grid.cells[$0] }
                targets = MaximumSearch.neighbourhoods(of: heavy, reach: reach, columns: Int(grid.columns))
                if let parents { targets = MaximumSearch.inside(targets, parents: parents.cells, shift: parents.shift) }
            }
            let bounds = grid.bounds(of: targets, taps: stage.taps)
            let margin = plan.margin(additions: 4 * reach + 4)
            let kept = bounds.indices.filter { (bounds[$0] + slack) * margin > best }
            return (kept.map { targets[$0] }, kept.map { bounds[$0] + slack })
        }

        /// Follows the heaviest cells down the finer levels of the plan from `starts` (cells of
        /// `level`): at each level asked, the heaviest few inside the cells reached at the level
        /// before (all of them at the plan's last level), one question a level (see
        /// ``diveLevel(below:cells:)`` for the levels asked); then computes the pixels of the
        /// cells reached whose bounds from one another are highest (of one alone, padded by the
        /// kernel's reach, from a remote source, whose statement reads that much anyway): raises
        /// the best.
        mutating func dive(from starts: OccupiedCells, level: Int) throws(Source.Failure) {
            var (reached, cellLevel) = (starts, level)
            while let next = diveLevel(below: cellLevel, cells: reached.cells.count) {
                let area = MaximumSearch.sortedWithoutRepeats(reached.cells)
                // At the plan's last level, every cell inside those reached: few, ranked by bound.
                let limit = next == plan.stages.last?.level ? nil : dives
                let children = try source.occupiedCells(
                    CellQuery(level: next, area: area, areaLevel: cellLevel, limit: limit))
                guard !children.cells.isEmpty else { break }
                (reached, cellLevel) = (children, next)
            }
            // The brightest by their bounds from one another (the heaviest cell alone may be a
            // lone heavy point beside a denser cluster), else the heaviest.
            var cells = reached.cells
            var rank = reached.weights
            if let stage = plan.stages.first(where: { $0.level == cellLevel }), cells.count > 1 {
                let grid = CellBounds(reached, level: cellLevel)
                (cells, rank) = (grid.cells, grid.boundsOfOccupiedCells(taps: stage.taps))
            }
            try compute(
                MaximumSearch.highest(isRemote ? 1 : dives, of: rank).map {
                    pixels(of: cells[$0], level: cellLevel).expanded(by: isRemote ? kernel.radius : 0)
                })
        }

        /// The plan's next level a dive asks about below `level` (whose `cells` it has reached),
        /// `nil` past the last. Where a question costs more than reading (``CellCosts/questionCells``)
        /// it skips levels: at summarised levels, the finest whose cells inside the area (at
        /// most `cells` · 4^(level − next)) cost less to read than a question; below them, where
        /// a question reads the area's rows whatever the level asked, the last level at once.
        /// Each level of the plan otherwise.
        func diveLevel(below level: Int, cells: Int) -> Int? {
            let levels = plan.stages.map(\.level).filter { $0 < level }
            guard let next = levels.first, let last = levels.last else { return nil }
            let budget = source.cellCosts.questionCells
            guard budget > 0 else { return next }
            let summarized = source.cellCosts.summarized ?? 33
            guard next >= summarized else { return last }
            let cheap = levels.filter {
                $0 >= summarized && 2 * (level - $0) < 62 && cells << (2 * (level - $0)) <= budget
            }
            return cheap.last ?? next
        }

        /// Computes the pixels of `cells` (of the last level, ascending, with their bounds), in
        /// rectangles of at most 256 pixels a side, highest bound first, while a bound is above
        /// the best; a few rectangles at once on all cores, one at a time from a remote source.
        mutating func computeRegions(of cells: [UInt64], bounds: [Float], stage: MaximumPlan.Stage)
            throws(Source.Failure)
        {
            var regions: [UInt64: (rect: PixelRect, bound: Float)] = [:]
            let shift = MaximumSearch.regionLevel
            for (cell, bound) in zip(cells, bounds) {
                let rect = pixels(of: cell, level: stage.level)
                // Pixels a dive computed already are no brighter than the best.
                guard !searched.contains(where: { $0.contains(rect, worldSize: space.worldSize) }) else { continue }
                let key = UInt64(rect.y >> shift) << 32 | UInt64(rect.x >> shift)
                regions[key] = regions[key].map { ($0.rect.union(rect), max($0.bound, bound)) } ?? (rect, bound)
            }
            let sorted = regions.sorted { ($0.value.bound, $1.key) > ($1.value.bound, $0.key) }.map(\.value)
            // From a remote source each rectangle is a statement that reads its padding; in
            // memory they are computed 8 at a time on all cores, and one left unread costs nothing.
            let ordered = isRemote ? MaximumSearch.joined(sorted, side: 1 << shift, padding: kernel.radius) : sorted
            let margin = plan.margin(additions: 4 * stage.reach + 4)
            let batch = isRemote ? 1 : 8
            var next = 0
            while next < ordered.count, ordered[next].bound * margin > best {
                let end = min(ordered.count, next + batch)
                try compute(ordered[next..<end].filter { $0.bound * margin > best }.map(\.rect))
                next = end
            }
        }

        /// Computes the intensities of `rects` (rows clipped to the world) as tiles compute them,
        /// raising the best; on all cores unless the source is remote.
        mutating func compute(_ rects: [PixelRect]) throws(Source.Failure) {
            let world = space.worldSize
            let clipped = rects.compactMap { rect -> PixelRect? in
                let top = max(0, rect.y)
                let bottom = min(world, rect.y + rect.height)
                return top < bottom ? PixelRect(x: rect.x, y: top, width: rect.width, height: bottom - top) : nil
            }
            var maxima: [Float] = []
            if isRemote || clipped.count < 2 {
                for rect in clipped {
                    maxima.append(try source.intensity(in: rect, space: space, kernel: kernel).maximum)
                }
            } else {
                let results = [Result<Float, Source.Failure>](unsafeUninitializedCapacity: clipped.count) {
                    buffer, count in
                    nonisolated(unsafe) let results = buffer
                    let (source, space, kernel) = (source, space, kernel)
                    DispatchQueue.concurrentPerform(iterations: clipped.count) { i in
                        results.initializeElement(
                            at: i,
                            to: Result { () throws(Source.Failure) in
                                try source.intensity(in: clipped[i], space: space, kernel: kernel).maximum
                            })
                    }
                    count = clipped.count
                }
                for result in results { maxima.append(try result.get()) }
            }
            for (rect, maximum) in zip(clipped, maxima) where maximum > best {
                best = maximum
                place = rect
            }
            searched += clipped
        }

        /// The pixels that hold a unit of `cell` (of `level`).
        func pixels(of cell: UInt64, level: Int) -> PixelRect {
            let (x, y) = CellBounds.position(cell)
            let shift = UInt64(level)
            let x0 = space.pixel(ofUnit: x << shift)
            let x1 = space.pixel(ofUnit: ((x + 1) << shift) - 1)
            let y0 = space.pixel(ofUnit: y << shift)
            let y1 = space.pixel(ofUnit: ((y + 1) << shift) - 1)
            return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
        }
    }
}
