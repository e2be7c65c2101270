import HeatmapCore

/// A layer's points while they change: the main index, and a small index of the points added
/// since it was last compacted, drawn as one source (a pixel's weight is the sum of both).
/// Immutable: a change makes a new value, which the layer swaps in atomically.
struct LiveData: WeightSource {
    typealias Failure = Never

    /// The main index.
    let base: PointIndex
    /// The points added since the last compaction.
    let delta: PointIndex

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

    /// M(z), exact: the index's own search while one index holds every point, else the
    /// branch and bound from the root over both.
    func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) -> Float {
        if delta.count == 0 { return base.maximumIntensity(space: space, kernel: kernel) }
        if base.count == 0 { return delta.maximumIntensity(space: space, kernel: kernel) }
        return Both(live: self).maximumIntensity(space: space, kernel: kernel)
    }

    /// The data with `added` appended: into the delta, merged into the main index once the
    /// delta grows past ``compactionThreshold(baseCount:)``.
    func adding(_ added: PointIndex) -> LiveData {
        let merged = delta.merging(added)
        if merged.count > Self.compactionThreshold(baseCount: base.count) {
            return LiveData(base: base.merging(merged), delta: Self.empty)
        }
        return LiveData(base: base, delta: merged)
    }

    /// The data without `points` (matched by position and weight, from the delta first), or
    /// the places in `points` of those found in neither index.
    func removing(_ points: [WeightedLatLng]) throws(HeatmapError) -> Result<LiveData, MissingPoints> {
        let (delta, missingInDelta) = try delta.removing(points)
        guard !missingInDelta.isEmpty else { return .success(LiveData(base: base, delta: delta)) }
        let rest = missingInDelta.map { points[$0] }
        let (base, missing) = try base.removing(rest)
        guard missing.isEmpty else { return .failure(MissingPoints(places: missing.map { missingInDelta[$0] })) }
        return .success(LiveData(base: base, delta: delta))
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

/// Both indexes as one source without a search of its own, so that M(z) is the protocol's
/// branch and bound from the root.
private struct Both: WeightSource {
    typealias Failure = Never
    let live: LiveData

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        live.addWeights(of: query, into: &sink)
    }
}
