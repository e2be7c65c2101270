import HeatmapKit

/// How the server's cache stays exact while points change (`POST`/`DELETE /{layer}/points`):
/// cache keys hold the layer's reload epoch, not its generation, so a change keeps every
/// cached tile but those it reaches (dropped by ``ServedLayer/change(_:removing:cache:)``).
/// A kept tile's pixels are right; its colours are while M(z) of its zoom (for its scale and
/// settings) is the value it was drawn with, so a tile drawn before the latest change is served
/// only once M(z) is found equal (then stamped with the generation, to be checked once).
extension ServedLayer {
    /// The generation (every change) and the epoch (reloads), read together.
    var cacheStamp: (generation: Int, epoch: Int) {
        state.withLock { ($0.generation, epoch.load(ordering: .relaxed)) }
    }

    /// Whether `tile`, found in the cache after reading `generation`, may answer for it: drawn
    /// from it, or before it with the M(z) the zoom has at it (`waiting`: computing M(z) if not
    /// known; else a tile whose M(z) is not known yet does not stand). No tile (and the mean's
    /// tiles, which a change drops) depends on no M(z).
    func stands(
        _ tile: RenderedTile, key: TileKey, at generation: Int, waiting: Bool,
        in cache: TileCache<TileKey, RenderedTile>
    ) -> Bool {
        if tile.drawnAt == generation || tile.normalization == nil { return true }
        let found =
            waiting
            ? try? layer.normalizationValue(zoom: key.zoom, scale: key.scale, settings: key.settings)
            : try? layer.normalizationIfReady(zoom: key.zoom, scale: key.scale, settings: key.settings)
        guard let value = found, value == tile.normalization else { return false }
        var stamped = tile
        stamped.drawnAt = generation
        // M(z) was read from the data of `generation` only if no change came meanwhile.
        return insert(stamped, for: key, drawnAt: generation, into: cache)
    }

    /// Caches a tile drawn from the data of `generation` unless a change came since (checked
    /// under the lock that changes hold while they drop the tiles they reach); returns whether
    /// it was current.
    @discardableResult
    func insert(
        _ tile: RenderedTile, for key: TileKey, drawnAt generation: Int, into cache: TileCache<TileKey, RenderedTile>
    ) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            cache.insert(tile, for: key)
            return true
        }
    }
}
