import HeatmapCore

/// A layer's points while they change: the main index, and a small index of the points added
/// since it was last compacted, drawn as one source (a pixel's weight is the sum of both).
/// Immutable: a change makes a new value, which the layer swaps in atomically.
struct LiveData: CellSource {
    typealias Failure = Never

    /// The main index.
    let base: PointIndex
    /// The points added since the last compaction.
    let delta: PointIndex

    init(base: PointIndex, delta: PointIndex) {
        self.base = base
        self.delta = delta
    }

    /// The points indexed, in both.
    var count: Int { base.count + delta.count }
    /// The sum of every weight, in both.
    var totalWeight: Double { base.totalWeight + delta.totalWeight }
    /// The points, as the indexes keep them (see ``PointIndex/points``).
    var points: [WeightedLatLng] { base.points + delta.points }

    /// The delta is merged into the main index once it holds more than this many points.
    static func compactionThreshold(baseCount: Int) -> Int { max(65_536, baseCount / 16) }

    /// Both indexes' weights for the query.
    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        if base.count > 0 { base.addWeights(of: query, into: &sink) }
        if delta.count > 0 { delta.addWeights(of: query, into: &sink) }
    }

    /// Both indexes' cells counted together (at most the cells of both).
    var cellCosts: CellCosts {
        CellCosts(occupied: (zip(base.cellCounts, delta.cellCounts).map { $0 + $1 }, count))
    }

    /// The occupied cells of both indexes, summed where both hold a cell (M(z)'s search asks
    /// both, never a merged index).
    func occupiedCells(_ query: CellQuery) -> OccupiedCells {
        guard delta.count > 0 else { return base.occupiedCells(query) }
        var every = query
        every.minimum = 0
        every.limit = nil
        return base.occupiedCells(every).merged(with: delta.occupiedCells(every))
            .kept(minimum: query.minimum, limit: query.limit)
    }

    /// The data with `added` appended: into the delta, merged into the main index once the
    /// delta grows past ``compactionThreshold(baseCount:)``.
    func adding(_ added: PointIndex) -> LiveData {
        let grown = delta.merging(added)
        if grown.count > Self.compactionThreshold(baseCount: base.count) {
            return LiveData(base: base.merging(grown), delta: Self.empty)
        }
        return LiveData(base: base, delta: grown)
    }

    /// The data without `points` (matched by position and weight, from the delta first), or
    /// the places in `points` of those found in neither index.
    func removing(_ removal: PointIndex.Removal) -> Result<LiveData, MissingPoints> {
        let (newDelta, missingInDelta) = delta.removing(removal)
        guard !missingInDelta.isEmpty else { return .success(LiveData(base: base, delta: newDelta)) }
        let (newBase, missing) = base.removing(removal.subset(missingInDelta))
        guard missing.isEmpty else { return .failure(MissingPoints(places: missing.map { missingInDelta[$0] })) }
        return .success(LiveData(base: newBase, delta: newDelta))
    }

    /// An index without points.
    static var empty: PointIndex {
        var builder = PointIndex.Builder()
        return builder.build()
    }
}

/// The places in a removal's list of the points that are not in the layer.
struct MissingPoints: Error {
    var places: [Int]
}
