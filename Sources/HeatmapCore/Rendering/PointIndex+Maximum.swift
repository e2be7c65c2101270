import Dispatch

extension PointIndex {
    /// The largest intensity of any pixel of the whole world at a zoom and scale: the
    /// normalisation value M(z) that gives every tile of the zoom one colour scale.
    ///
    /// Branch and bound, two ways, each exact:
    /// - From the root, over cells of 2^k × 2^k pixels. A cell is a pixel of zoom z − k, so
    ///   the weights of cells come from the index as a render at that zoom does. Convolving
    ///   them with the kernel evaluated at the *smallest* distance between two cells,
    ///   k((|d| − 1) · 2^k + 1) for d cells apart (1 for the cell itself), bounds the
    ///   intensity of every pixel in each cell from above. Cells are refined 16 × 16 at a
    ///   time, most promising first (batches on all cores), and dropped when their bound is
    ///   not above the best intensity found; at k = 0 the bound is the exact intensity.
    /// - From ``CellBounds`` where most points are alone in cells one reach wide (fine
    ///   zooms). There, a coarse cell holds far more weight than any pixel can see, so the
    ///   root's bounds prune nothing until cells are small, and refining every coarse cell
    ///   one by one is slow. Instead, sweeps over the occupied cells bound every cell at
    ///   once, a second sweep 4 × 4 finer bounds the cells left, and the pixels of the fine
    ///   cells left are computed in rectangles (see `MaximumSearch.searchFromCells`).
    ///
    /// The answer is deterministic and equals the largest pixel of the rendered tiles (to
    /// float rounding); 0 when no point has positive weight.
    ///
    /// - Complexity: from the root, a render of 16 × 16 cells (and the kernel's reach around
    ///   them) for each cell whose bound exceeds the maximum; from the cells, O(c log(n / c))
    ///   for the c occupied cells, plus the pixels whose bounds exceed the maximum.
    public func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) -> Float {
        MaximumSearch(source: self, space: space, kernel: kernel).run(start: .automatic)
    }

    /// Where ``maximumIntensity(space:kernel:)`` starts its search; for tests and the
    /// benchmark, which compare them. The answer is the same from any start.
    @_spi(Benchmark)
    public enum MaximumSearchStart: Sendable, Equatable {
        /// From ``CellBounds`` where most points are alone in their cells, else from the root.
        case automatic
        /// From the sweep of ``CellBounds`` where it fits in the world, else from the root.
        case cells
        /// From the zoom-0 grid of cells, refining down.
        case root
    }

    /// ``maximumIntensity(space:kernel:)`` from a chosen start.
    @_spi(Benchmark)
    public func maximumIntensity(space: PixelSpace, kernel: GaussianKernel, start: MaximumSearchStart) -> Float {
        MaximumSearch(source: self, space: space, kernel: kernel).run(start: start)
    }

    /// The total weight of the points in a rectangle of pixels; columns wrap around the
    /// world, rows are clipped to it.
    ///
    /// - Complexity: O(cells along the rectangle's edges × log n).
    public func weight(in rect: PixelRect, space: PixelSpace) -> Double {
        let world = space.worldSize
        let rows = max(0, rect.y)..<min(world, rect.y + rect.height)
        guard !rows.isEmpty else { return 0 }
        let columns = rect.width >= world ? 0..<world : rect.x..<(rect.x + rect.width)
        var sink = WeightSink()
        PointIndex.forEachWorldCopy(of: columns, worldSize: world) { range, _ in
            let query = PixelQuery(
                space: space, x0: range.lowerBound, x1: range.upperBound, y0: rows.lowerBound, y1: rows.upperBound)
            walk(query, into: &sink)
        }
        return sink.total
    }
}

/// The branch and bound behind ``PointIndex/maximumIntensity(space:kernel:)``: from the root
/// over any ``WeightSource``, from ``CellBounds`` over the in-memory index.
struct MaximumSearch<Source: WeightSource> {
    /// Each refinement splits a cell into `2^levelStep` × `2^levelStep` cells.
    static var levelStep: Int { 4 }

    let source: Source
    let space: PixelSpace
    let kernel: GaussianKernel
    /// The bounding kernel of each level 0...zoom, made once: `levelTaps[level]`.
    let levelTaps: [(taps: [Float], reach: Int)]

    init(source: Source, space: PixelSpace, kernel: GaussianKernel) {
        self.source = source
        self.space = space
        self.kernel = kernel
        levelTaps = (0...space.zoom).map { Self.boundTaps(level: $0, kernel: kernel) }
    }

    /// A cell waiting to be refined: cell (`x`, `y`) of size 2^`level` pixels.
    struct Candidate: Comparable {
        var bound: Float
        var level: Int
        var x: Int
        var y: Int

        static func < (a: Candidate, b: Candidate) -> Bool {
            if a.bound != b.bound { return a.bound < b.bound }
            // Ties broken by place, so that the order never depends on anything else.
            return (a.level, a.y, a.x) > (b.level, b.y, b.x)
        }
    }

    /// The search from the whole world in cells of 2^zoom pixels (a zoom-0 grid).
    func searchFromRoot() throws(Source.Failure) -> Float {
        var best: Float = 0
        var heap = MaxHeap<Candidate>()
        let root = try bounds(
            level: space.zoom, rect: PixelRect(x: 0, y: 0, width: space.tileSize, height: space.tileSize))
        if space.zoom == 0 { return root.maximum }
        push(root, level: space.zoom, origin: (0, 0), above: best, into: &heap)
        // Dives to the exact intensity under the highest bounds give a lower bound early,
        // so that few cells are ever queued.
        var starts: [Candidate] = []
        for _ in 0..<Self.dives {
            guard let start = heap.pop() else { break }
            best = max(best, try dive(from: start))
            starts.append(start)
        }
        for start in starts { heap.push(start) }
        try refine(&heap, best: &best)
        return best
    }

    /// Refines the cells of `heap`, highest bound first, until no bound is above `best`,
    /// raising `best` to the largest exact intensity met.
    ///
    /// Cells are taken in batches whose children are bounded on all cores; the answer does
    /// not depend on the order, only the work does (a little: a batch may hold a cell that
    /// a result earlier in the same batch would have dropped).
    func refine(_ heap: inout MaxHeap<Candidate>, best: inout Float) throws(Source.Failure) {
        var batch: [Candidate] = []
        while true {
            batch.removeAll(keepingCapacity: true)
            while batch.count < Self.batchSize, let candidate = heap.pop() {
                // Every cell left is no better: only the batch's children can be.
                guard candidate.bound > best else {
                    heap = MaxHeap()
                    break
                }
                batch.append(candidate)
            }
            if batch.isEmpty { return }
            for (candidate, grid) in zip(batch, try childBounds(of: batch)) where candidate.bound > best {
                let (level, rect) = children(of: candidate)
                if level == 0 {
                    best = max(best, grid.maximum)
                } else {
                    push(grid, level: level, origin: (rect.x, rect.y), above: best, into: &heap)
                }
            }
        }
    }

    /// How many cells are refined at once.
    static var batchSize: Int { 32 }

    /// The bounds of the children of each candidate, computed on all cores.
    func childBounds(of batch: [Candidate]) throws(Source.Failure) -> [IntensityGrid] {
        if batch.count < 4 {
            var grids: [IntensityGrid] = []
            for candidate in batch {
                let (level, rect) = children(of: candidate)
                grids.append(try bounds(level: level, rect: rect))
            }
            return grids
        }
        let results = [Result<IntensityGrid, Source.Failure>](unsafeUninitializedCapacity: batch.count) {
            buffer, count in
            nonisolated(unsafe) let results = buffer
            DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                let (level, rect) = children(of: batch[i])
                results.initializeElement(
                    at: i, to: Result { () throws(Source.Failure) in try bounds(level: level, rect: rect) })
            }
            count = batch.count
        }
        var grids: [IntensityGrid] = []
        grids.reserveCapacity(results.count)
        for result in results { grids.append(try result.get()) }
        return grids
    }

    /// How many greedy dives seed the lower bound.
    static var dives: Int { 16 }

    /// The level and rectangle (in cells of that level) of a candidate's children.
    func children(of candidate: Candidate) -> (level: Int, rect: PixelRect) {
        let level = max(0, candidate.level - Self.levelStep)
        let factor = 1 << (candidate.level - level)
        return (level, PixelRect(x: candidate.x * factor, y: candidate.y * factor, width: factor, height: factor))
    }

    /// Follows the child with the highest bound down to pixels; returns the exact intensity
    /// found there.
    func dive(from start: Candidate) throws(Source.Failure) -> Float {
        var candidate = start
        while true {
            let (level, rect) = children(of: candidate)
            let grid = try bounds(level: level, rect: rect)
            if level == 0 { return grid.maximum }
            guard let top = grid.values.indices.max(by: { grid.values[$0] < grid.values[$1] }) else { return 0 }
            candidate = Candidate(
                bound: grid.values[top], level: level, x: rect.x + top % grid.width, y: rect.y + top / grid.width)
        }
    }

    /// Queues the cells of `grid` (cells of `level`, the first at `origin`) whose bound is
    /// above `best`, raised a hair so that float rounding never drops the true maximum.
    func push(
        _ grid: IntensityGrid, level: Int, origin: (x: Int, y: Int), above best: Float,
        into heap: inout MaxHeap<Candidate>
    ) {
        let margin: Float = 1 + 1e-5
        for j in 0..<grid.height {
            for i in 0..<grid.width where grid[i, j] > best {
                heap.push(Candidate(bound: grid[i, j] * margin, level: level, x: origin.x + i, y: origin.y + j))
            }
        }
    }

    /// Upper bounds for every cell of `rect` (in cells of 2^`level` pixels); at level 0,
    /// the exact intensities.
    func bounds(level: Int, rect: PixelRect) throws(Source.Failure) -> IntensityGrid {
        // 0 ≤ level ≤ zoom, so the cell space always exists.
        let cellSpace = (try? PixelSpace(zoom: space.zoom - level, scale: space.scale)) ?? space
        let (taps, reach) = levelTaps[level]
        return try source.convolved(in: rect, space: cellSpace, taps: taps, reach: reach)
    }

    /// The kernel at the smallest distance between pixels of cells `d` apart, for cells of
    /// 2^`level` pixels: 1 at d = 0, k((|d| − 1) · 2^level + 1) beyond, as far as that is ≤ R.
    static func boundTaps(level: Int, kernel: GaussianKernel) -> (taps: [Float], reach: Int) {
        if level == 0 { return (kernel.taps, kernel.radius) }
        let size = 1 << level
        let reach = (kernel.radius - 1) / size + 1
        let taps = (-reach...reach).map { d in d == 0 ? 1 : kernel.taps[kernel.radius + (abs(d) - 1) * size + 1] }
        return (taps, reach)
    }
}

/// Sums the weight of whole cells.
private struct WeightSink: CellSink {
    static var takesWholeCells: Bool { true }
    var total = 0.0
    mutating func add(column: Int, row: Int, weight: Double) { total += weight }
}
