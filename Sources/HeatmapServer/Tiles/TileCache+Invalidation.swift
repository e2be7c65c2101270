import HeatmapKit

/// What a change of a layer's data reaches, to drop exactly the cached tiles it alters: for
/// any layer whose cache keys are ``TileKey``s (file layers, and others whose changes are
/// known by position, such as rows of a table).
struct TileInvalidation {
    /// For a zoom and scale and a kernel's reach in pixels (asked once for each among the
    /// cached tiles): whether the change alters tile (x, y), its area padded by the reach.
    var tilesReached: (_ space: PixelSpace, _ reach: Int) -> (_ x: Int, _ y: Int) -> Bool
    /// The kernel's reach in pixels of a cached tile's settings, zoom and scale; `nil` drops the
    /// tile whatever it shows (settings whose tiles the change may alter everywhere).
    var reach: (_ key: TileKey) -> Int?

    /// The invalidation of changed points: the tiles their positions reach
    /// (``PointIndex/tilesReached(space:reach:)``, found once a zoom, scale and reach).
    init(changed: PointIndex, reach: @escaping (TileKey) -> Int?) {
        tilesReached = { space, pixels in
            let reached = changed.tilesReached(space: space, reach: pixels)
            return { x, y in reached.contains(y * space.tilesAcross + x) }
        }
        self.reach = reach
    }

    /// The invalidation of a change that says itself which tiles it reaches (a table's rows,
    /// ``PartialUpdate/reaches``).
    init(reaches: @escaping @Sendable (PixelSpace, Int, Int, Int) -> Bool, reach: @escaping (TileKey) -> Int?) {
        tilesReached = { space, pixels in { x, y in reaches(space, pixels, x, y) } }
        self.reach = reach
    }
}

extension TileCache where Key == TileKey {
    /// Drops the cached tiles of layer `name` that `invalidation` reaches (each zoom, scale and
    /// reach worked out once), and every tile of the layer keyed by an epoch other than
    /// `epoch`; returns how many were dropped. Call it where tiles of the layer are not being
    /// inserted (under the lock that a render's insert takes), so that none slips in between.
    func drop(layer name: String, epoch: Int, _ invalidation: TileInvalidation) -> Int {
        var reached: [ReachGroup: (Int, Int) -> Bool] = [:]
        return removeAll { key in
            guard key.layer == name else { return false }
            guard key.generation == epoch, let space = try? PixelSpace(zoom: key.zoom, scale: key.scale),
                let reach = invalidation.reach(key)
            else { return true }
            let group = ReachGroup(space: space, reach: reach)
            let reaches = reached[group] ?? invalidation.tilesReached(space, reach)
            reached[group] = reaches
            return reaches(key.x, key.y)
        }
    }
}

/// The tiles a change reaches are found once for each zoom, scale and reach among the cached.
private struct ReachGroup: Hashable {
    var space: PixelSpace
    var reach: Int
}
