import HeatmapKit

/// How the server's cache stays exact while points change (`POST`/`DELETE /{layer}/points`):
/// cache keys hold the layer's reload epoch, not its generation, so a change keeps every
/// cached tile but those it reaches (dropped by ``ServedLayer/change(_:removing:)``, its own
/// and those of stacks drawn from it). A kept tile's pixels are right; its colours are while
/// M(z) of its zoom (for its scale and settings) is the value it was drawn with, so a tile
/// drawn before the latest change is served only once M(z) is found equal (then stamped with
/// the generation, to be checked once).
extension ServedLayer {
    /// The generation (every change) and the epoch (reloads), read together.
    var cacheStamp: (generation: Int, epoch: Int) {
        state.withLock { ($0.generation, epochs.load(ordering: .relaxed)) }
    }

    /// Advanced by reloads only.
    var epoch: Int { epochs.load(ordering: .relaxed) }

    /// Advanced by every change.
    var generation: Int { state.withLock { $0.generation } }

    /// Whether a tile drawn from the data of `dependency.drawnAt` may answer for `generation`:
    /// drawn from it, or before it with the M(z) the zoom has at it (`waiting`: computing M(z)
    /// if not known; else a tile whose M(z) is not known yet does not stand). No tile (and the
    /// mean's tiles, which a change drops) depends on no M(z).
    func stands(_ dependency: TileDependency, zoom: Int, scale: Int, at generation: Int, waiting: Bool) -> Bool {
        if dependency.drawnAt == generation || dependency.normalization == nil { return true }
        let settings = dependency.settings.applied(to: self.settings)
        if let filter = dependency.settings.filter, filter.scale == .filter {
            return filteredNormalization(filter, settings: settings, zoom: zoom, scale: scale, waiting: waiting)
                == dependency.normalization
        }
        let found =
            waiting
            ? try? heatmap.normalizationValue(zoom: zoom, scale: scale, settings: settings)
            : try? heatmap.normalizationIfReady(zoom: zoom, scale: scale, settings: settings)
        return found.map { $0 == dependency.normalization } ?? false
    }

    /// Runs `body` under the lock that changes hold while they drop the tiles they reach.
    func holdingChanges<Result>(_ body: (_ generation: Int) -> Result) -> Result {
        state.withLock { body($0.generation) }
    }

    /// Caches a tile drawn from the data of `generation` unless a change came since (checked
    /// under the lock that changes hold while they drop the tiles they reach); returns whether
    /// it was current.
    @discardableResult
    func insert(
        _ tile: RenderedTile, for key: TileKey, drawnAt generation: Int, into cache: TileCache<TileKey, RenderedTile>
    ) -> Bool {
        holdingChanges { now in
            guard now == generation else { return false }
            cache.insert(tile, for: key)
            return true
        }
    }
}
