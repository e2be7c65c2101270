import HeatmapCore
import Synchronization

/// A layer's points while they change: the main index, and a small index of the points added
/// since it was last compacted, drawn as one source (a pixel's weight is the sum of both).
/// Immutable: a change makes a new value, which the layer swaps in atomically.
struct LiveData: WeightSource {
    typealias Failure = Never

    /// The main index.
    let base: PointIndex
    /// The points added since the last compaction.
    let delta: PointIndex
    /// Both merged into one index, made once when M(z) is first needed (the index's own
    /// search is far faster at fine zooms than the branch and bound over two sources); the
    /// next change starts from it.
    private let merged = MergedIndex()

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

    /// M(z), exact: up to zoom 10, the branch and bound from the root over both indexes (a
    /// few milliseconds there); at finer zooms, where that search is slow for spread points,
    /// the index's own search over the merged index (the same arrays as an index built afresh
    /// from the points).
    func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) -> Float {
        if delta.count > 0, merged.made == nil, space.zoom <= Self.zoomsFromRoot {
            return Both(live: self).maximumIntensity(space: space, kernel: kernel)
        }
        return compacted.maximumIntensity(space: space, kernel: kernel)
    }

    /// The zooms whose M(z) is searched over both indexes, without merging them.
    static var zoomsFromRoot: Int { 10 }

    /// One index of every point: the main one while the delta is empty, else both merged
    /// (once, by the first caller).
    var compacted: PointIndex {
        if delta.count == 0 { return base }
        return merged.index { base.merging(delta) }
    }

    /// The main index and delta to change: the merged index if it was made already.
    private var parts: (base: PointIndex, delta: PointIndex) {
        merged.made.map { ($0, Self.empty) } ?? (base, delta)
    }

    /// The data with `added` appended: into the delta, merged into the main index once the
    /// delta grows past ``compactionThreshold(baseCount:)``.
    func adding(_ added: PointIndex) -> LiveData {
        let (base, delta) = parts
        let grown = delta.merging(added)
        if grown.count > Self.compactionThreshold(baseCount: base.count) {
            return LiveData(base: base.merging(grown), delta: Self.empty)
        }
        return LiveData(base: base, delta: grown)
    }

    /// The data without `points` (matched by position and weight, from the delta first), or
    /// the places in `points` of those found in neither index.
    func removing(_ removal: PointIndex.Removal) -> Result<LiveData, MissingPoints> {
        let (base, delta) = parts
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

/// Both indexes as one source without a search of its own, so that M(z) is the protocol's
/// branch and bound from the root.
private struct Both: WeightSource {
    typealias Failure = Never
    let live: LiveData

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        live.addWeights(of: query, into: &sink)
    }
}

/// The merged index of a ``LiveData``, made at most once.
private final class MergedIndex: Sendable {
    private let value = Mutex<PointIndex?>(nil)
    private let making = Mutex<Void>(())

    /// The index if made already.
    var made: PointIndex? { value.withLock { $0 } }

    /// The index, made by `make` on first use (later callers wait for it).
    func index(_ make: () -> PointIndex) -> PointIndex {
        if let made { return made }
        return making.withLock { _ in
            if let made { return made }
            let index = make()
            value.withLock { $0 = index }
            return index
        }
    }
}
