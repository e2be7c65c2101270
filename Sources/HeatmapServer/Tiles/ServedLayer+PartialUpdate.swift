import HeatmapKit
import Synchronization

/// The partial changes of a served layer: how many there were (the generation that keys the
/// server's cached tiles is the layer's generation less them, so that a partial change keeps
/// the tiles it does not reach) and the caches to drop the reached tiles from.
final class PartialChanges: Sendable {
    let count = Mutex(0)
    let caches = Mutex<[TileCache<TileKey, RenderedTile>]>([])

    /// Drops the tiles of later partial changes from `cache` too.
    func attach(_ cache: TileCache<TileKey, RenderedTile>) {
        caches.withLock { $0.append(cache) }
    }
}

extension ServedLayer {
    /// The generation that keys cached tiles (advanced by every change but a partial one),
    /// and the data's generation (advanced by every change), read together.
    var generations: (cache: Int, data: Int) {
        state.withLock { state in (state.generation - partial.count.withLock { $0 }, state.generation) }
    }

    /// Caches `tile` if the data are still those of generation `changes` (checked and cached
    /// under the lock a change takes, so that a partial change cannot drop the key between).
    func keep(
        _ tile: RenderedTile, for key: TileKey, in cache: TileCache<TileKey, RenderedTile>,
        ifUnchangedSince changes: Int
    ) {
        state.withLock { state in
            if state.generation == changes { cache.insert(tile, for: key) }
        }
    }

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
        return state.withLock { state in
            let epoch = state.generation - partial.count.withLock { $0 }
            let before = layer.replaceSource(with: source, keeping: update.maxima)
            let moved = Set(before.keys.filter { before[$0] != update.maxima[$0] })
            state = (state.generation + 1, data)
            partial.count.withLock { $0 += 1 }
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
