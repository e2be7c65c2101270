import HeatmapKit
import Synchronization

/// The caches a served layer's partial changes (``ServedLayer/replace(with:update:)``) drop
/// the tiles they reach from.
final class PartialChanges: Sendable {
    let caches = Mutex<[TileCache<TileKey, RenderedTile>]>([])

    /// Drops the tiles of later partial changes from `cache` too.
    func attach(_ cache: TileCache<TileKey, RenderedTile>) {
        caches.withLock { $0.append(cache) }
    }
}

extension ServedLayer {
    /// The M(z) values the current data know (the ones a tile used so far).
    public var knownMaxima: [MaximumSlotKey: Float] { layer.knownMaxima }

    /// Swaps in data drawn from another source, as ``replace(with:)`` does, but keeps the
    /// server's cached tiles that `update` does not reach at zooms whose M(z) it keeps:
    /// the others are dropped in the same step, with the tiles drawn with a radius in metres or
    /// a percentile (whose scale the change may move). A tile drawn from the old data that
    /// finishes after the swap is not cached.
    ///
    /// - Returns: the number of cached tiles dropped.
    @discardableResult
    public func replace(with data: LayerData, update: PartialUpdate) -> Int {
        guard let source = data.source else {
            replace(with: data)
            return 0
        }
        // Cached tiles keep the reload epoch in their keys (see ServedLayer+Invalidation.swift):
        // a partial change advances the generation alone, and drops what it reaches.
        return state.withLock { state in
            let epoch = epoch.load(ordering: .relaxed)
            let before = layer.replaceSource(with: source, keeping: update.maxima)
            let moved = Set(before.keys.filter { before[$0] != update.maxima[$0] })
            state = (state.generation + 1, data)
            let name = name
            return partial.caches.withLock { caches in
                caches.reduce(0) { dropped, cache in
                    dropped
                        + cache.removeAll { key in
                            guard key.layer == name, key.generation == epoch else { return false }
                            return Self.isReached(key, by: update, moved: moved)
                        }
                }
            }
        }
    }

    /// Whether a cached tile may differ after `update`: its area reached, its M(z) `moved`
    /// (or not one kept), or drawn with settings whose scale the change may move.
    static func isReached(_ key: TileKey, by update: PartialUpdate, moved: Set<MaximumSlotKey>) -> Bool {
        let settings = key.settings
        guard settings.radiusMeters == nil, settings.maximumPercentile == nil, settings.aggregate == .sum,
            let space = try? PixelSpace(zoom: key.zoom, scale: key.scale)
        else { return true }
        let reach = settings.radius * key.scale
        if settings.maximumIntensity == nil {
            let slot = MaximumSlotKey(zoom: settings.normalizationZoom(key.zoom), scale: key.scale, reach: reach)
            if moved.contains(slot) || update.maxima[slot] == nil { return true }
        }
        return update.reaches(space, reach, key.x, key.y)
    }
}
