/// The one question M(z)'s search asks a source: the occupied cells of a quadtree level, with
/// their weights, in the whole world or inside an area, above a threshold, heaviest first with
/// a limit. Everything else the search needs is the pixels of rectangles, which every
/// ``WeightSource`` gives.
///
/// A cell of `level` is a square of 2^level × 2^level fixed-point units (see ``WebMercator``);
/// cells are packed `row << 32 | column`, in cells of their level.
package struct CellQuery: Sendable, Hashable {
    /// The level of the cells asked for, 0...31.
    package var level: Int
    /// Only the cells inside these cells of ``areaLevel`` (packed, ascending, each once), or
    /// `nil` for the whole world.
    package var area: [UInt64]?
    /// The level of the cells of ``area``, above ``level``.
    package var areaLevel: Int
    /// Cells lighter than this may be left out: the search counts what they may hold in its
    /// bounds.
    package var minimum: Double
    /// At most this many cells, the heaviest; `nil` for all.
    package var limit: Int?

    /// The cells of `level` in the whole world, or in the cells `area` of `areaLevel`.
    package init(level: Int, area: [UInt64]? = nil, areaLevel: Int = 32, minimum: Double = 0, limit: Int? = nil) {
        self.level = level
        self.area = area
        self.areaLevel = areaLevel
        self.minimum = minimum
        self.limit = limit
    }
}

/// A source's answer to a ``CellQuery``: each occupied cell once, with a weight at least the
/// sum of its points' weights (rounded up to a `Float`), in any order unless ``isMortonOrdered``.
package struct OccupiedCells: Sendable {
    /// The cells, packed `row << 32 | column`.
    package var cells: [UInt64]
    /// Each cell's weight, rounded up.
    package var weights: [Float]
    /// Whether the cells come in Morton order (then each row's columns ascend), as the
    /// in-memory index walks them: sorting them by row is then one stable pass on the rows.
    package var isMortonOrdered: Bool

    /// Cells and their weights.
    package init(cells: [UInt64] = [], weights: [Float] = [], isMortonOrdered: Bool = false) {
        self.cells = cells
        self.weights = weights
        self.isMortonOrdered = isMortonOrdered
    }

    /// The cells of at least `minimum`, the `limit` heaviest (heaviest first) when given.
    package func kept(minimum: Double, limit: Int?) -> OccupiedCells {
        var kept = self
        if minimum > 0 {
            let indices = weights.indices.filter { Double(weights[$0]) >= minimum }
            kept = OccupiedCells(
                cells: indices.map { cells[$0] }, weights: indices.map { weights[$0] }, isMortonOrdered: isMortonOrdered
            )
        }
        guard let limit else { return kept }
        let top = MaximumSearch.highest(limit, of: kept.weights)
        return OccupiedCells(cells: top.map { kept.cells[$0] }, weights: top.map { kept.weights[$0] })
    }
}

extension OccupiedCells {
    /// Both answers' cells, the weights of a cell both hold added (rounded up): two sources
    /// drawn as one. In Morton order when both are.
    package func merged(with other: OccupiedCells) -> OccupiedCells {
        guard isMortonOrdered && other.isMortonOrdered else {
            var sums: [UInt64: Double] = [:]
            for (cell, weight) in zip(cells + other.cells, weights + other.weights) {
                sums[cell, default: 0] += Double(weight)
            }
            return OccupiedCells(cells: Array(sums.keys), weights: sums.values.map { Float(roundingUp: $0) })
        }
        func code(_ cell: UInt64) -> UInt64 {
            Morton.key(x: UInt32(truncatingIfNeeded: cell), y: UInt32(truncatingIfNeeded: cell >> 32))
        }
        var merged = OccupiedCells(isMortonOrdered: true)
        merged.cells.reserveCapacity(cells.count + other.cells.count)
        merged.weights.reserveCapacity(cells.count + other.cells.count)
        var (i, j) = (0, 0)
        while i < cells.count || j < other.cells.count {
            let a = i < cells.count ? code(cells[i]) : .max
            let b = j < other.cells.count ? code(other.cells[j]) : .max
            if a == b {
                merged.cells.append(cells[i])
                merged.weights.append(Float(roundingUp: Double(weights[i]) + Double(other.weights[j])))
                (i, j) = (i + 1, j + 1)
            } else if a < b {
                merged.cells.append(cells[i])
                merged.weights.append(weights[i])
                i += 1
            } else {
                merged.cells.append(other.cells[j])
                merged.weights.append(other.weights[j])
                j += 1
            }
        }
        return merged
    }
}

extension Float {
    /// The smallest `Float` at least `value` (a cell's weight, for bounds from above).
    package init(roundingUp value: Double) {
        var rounded = Float(value)
        if Double(rounded) < value { rounded = rounded.nextUp }
        self = rounded
    }
}

/// What a source's cell questions cost, which M(z)'s plan takes into account (see
/// ``MaximumPlan``); the answer never depends on it.
package struct CellCosts: Sendable {
    /// The finest level whose cells the source sums without reading its points (a database's
    /// summaries), so that a question over the whole world there and coarser is cheap; `nil`
    /// when every question reads the points in its area (in memory, a fast pass).
    package var summarized: Int?
    /// Whether each question is a round trip that reads rows (a database): the search then
    /// asks few, leaves light cells out (a threshold) and reads pixels one region at a time.
    package var isRemote: Bool
    /// The number of occupied cells of each level 0...32, and of points, where the source
    /// counts them (the index does as it is built): where most points are alone in their cells
    /// R + 1 pixels wide and the cells 16 times as wide are more than a fifth as many, coarser
    /// cells would drop little, and the plan starts there.
    package var occupied: (cells: [Int], points: Int)?
    /// What asking a question costs beyond reading, in cells read: a round trip to a database is
    /// worth a few thousand summary rows; 0 where asking costs nothing more (in memory). The
    /// dives then ask a finer level at once, not each level of the plan between (see
    /// ``MaximumSearch``).
    package var questionCells: Int

    /// The costs of a source.
    package init(
        summarized: Int? = nil, isRemote: Bool = false, occupied: (cells: [Int], points: Int)? = nil,
        questionCells: Int = 0
    ) {
        self.summarized = summarized
        self.isRemote = isRemote
        self.occupied = occupied
        self.questionCells = questionCells
    }
}

/// M(z) and where it was found: a rectangle of pixels holding a pixel of that intensity (`nil`
/// when no point has positive weight).
package struct MaximumFound: Sendable, Hashable {
    /// M(z).
    package var value: Float
    /// A rectangle of world pixels (columns may run past the world's edges) holding a pixel of
    /// intensity `value`.
    package var place: PixelRect?

    /// A value and its place.
    package init(value: Float, place: PixelRect?) {
        self.value = value
        self.place = place
    }
}

/// A ``WeightSource`` that answers M(z)'s cell question itself, cheaper than by gathering
/// pixels (the in-memory index from its Morton runs, a database with one `GROUP BY` or its
/// summaries). Every other source answers it from ``WeightSource/addWeights(of:into:)`` (see
/// ``GatheredCellSource``). No source brings a search of its own: M(z) is
/// ``WeightSource/maximumIntensity(space:kernel:)``, the one search of ``MaximumSearch``.
package protocol CellSource<Failure>: WeightSource {
    /// The occupied cells `query` asks for.
    func occupiedCells(_ query: CellQuery) throws(Failure) -> OccupiedCells

    /// What the questions cost (the plan's hints).
    var cellCosts: CellCosts { get }

    /// Runs `search` over one state of the source's data (the source itself, or a view of one
    /// snapshot of a database's) and returns what it found; a source may keep what was found
    /// and answer from it later for the same state (a database's `heatmap_maxima`), as a
    /// layer's memory keeps M(z) per zoom. The default runs `search(self)`.
    func maximum(
        space: PixelSpace, kernel: GaussianKernel,
        searching search: (any CellSource<Failure>) throws(Failure)
            -> MaximumFound
    ) throws(Failure) -> MaximumFound
}

extension CellSource {
    /// By default, cells cost a pass over the points in their area.
    package var cellCosts: CellCosts { CellCosts() }

    /// By default, the search over the source itself, nothing kept.
    package func maximum(
        space: PixelSpace, kernel: GaussianKernel,
        searching search: (any CellSource<Failure>) throws(Failure)
            -> MaximumFound
    ) throws(Failure) -> MaximumFound {
        try search(self)
    }

    /// M(z) and where it lies: the one search, in the source's scope (see
    /// ``maximum(space:kernel:searching:)``).
    package func maximumFound(space: PixelSpace, kernel: GaussianKernel) throws(Failure) -> MaximumFound {
        try maximum(space: space, kernel: kernel) { (source) throws(Failure) in
            try MaximumSearch.run(over: source, space: space, kernel: kernel)
        }
    }
}

extension WeightSource {
    /// M(z): the largest intensity of any pixel of the world at a zoom and scale, exact (to
    /// float rounding, deterministic), 0 when no point has positive weight. The one search of
    /// `MaximumSearch` over the source's answers to the cell question (its own, or gathered
    /// from its pixels).
    public func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) throws(Failure) -> Float {
        if let source = self as? any CellSource<Failure> {
            return try source.maximumFound(space: space, kernel: kernel).value
        }
        return try GatheredCellSource(base: self).maximumFound(space: space, kernel: kernel).value
    }
}
