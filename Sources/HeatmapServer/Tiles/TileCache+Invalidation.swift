import HeatmapKit

/// What a change of a layer's data reaches, to drop exactly the cached tiles it alters: for
/// any layer whose cache keys are ``TileKey``s (file layers, and others whose changes are
/// known by position, such as rows of a table).
struct TileInvalidation {
    /// The tiles of a zoom and scale whose area, padded by a kernel's reach in pixels, holds a
    /// changed point: each `y * tilesAcross + x` (as ``PointIndex/tilesReached(space:reach:)``).
    var tilesReached: (_ space: PixelSpace, _ reach: Int) -> Set<Int>
    /// The kernel's reach in pixels of a cached tile's settings, zoom and scale; `nil` drops the
    /// tile whatever it shows (settings whose tiles the change may alter everywhere).
    var reach: (_ key: TileKey) -> Int?

    /// The invalidation of changed points: the tiles their positions reach.
    init(changed: PointIndex, reach: @escaping (TileKey) -> Int?) {
        tilesReached = { space, pixels in changed.tilesReached(space: space, reach: pixels) }
        self.reach = reach
    }
}

extension TileCache where Key == TileKey {
    /// Drops the cached tiles of layer `name` that `invalidation` reaches (each zoom, scale and
    /// reach worked out once), and every tile of the layer keyed by an epoch other than
    /// `epoch`; returns how many were dropped. Call it where tiles of the layer are not being
    /// inserted (under the lock that a render's insert takes), so that none slips in between.
    func drop(layer name: String, epoch: Int, _ invalidation: TileInvalidation) -> Int {
        var reached: [ReachGroup: Set<Int>] = [:]
        return removeAll { key in
            guard key.layer == name else { return false }
            guard key.generation == epoch, let space = try? PixelSpace(zoom: key.zoom, scale: key.scale),
                let reach = invalidation.reach(key)
            else { return true }
            let group = ReachGroup(space: space, reach: reach)
            if reached[group] == nil { reached[group] = invalidation.tilesReached(space, reach) }
            return reached[group]?.contains(key.y * space.tilesAcross + key.x) ?? true
        }
    }
}

/// The tiles a change reaches are found once for each zoom, scale and reach among the cached.
private struct ReachGroup: Hashable {
    var space: PixelSpace
    var reach: Int
}
