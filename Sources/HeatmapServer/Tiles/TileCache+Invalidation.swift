import HeatmapCore
import HeatmapKit

/// What a change of a layer's data reaches, to drop exactly the cached tiles it alters (its
/// own and those of stacks drawn from it): for layers whose changes are known by position
/// (points, and rows of a table).
struct TileInvalidation {
    /// For a zoom and scale and a kernel's reach in pixels (asked once for each among the
    /// cached tiles): whether the change alters tile (x, y), its area padded by the reach.
    var tilesReached: (_ space: PixelSpace, _ reach: Int) -> (_ x: Int, _ y: Int) -> Bool
    /// The kernel's reach in pixels of a cached tile drawn with `settings` (the layer's own
    /// with the tile's key's over them); `nil` drops the tile whatever it shows (settings whose
    /// tiles the change may alter everywhere).
    var reach: (_ key: TileKey, _ settings: HeatmapSettings) -> Int?
    /// The layer's own settings, which a key's settings are given over.
    var settings: HeatmapSettings

    /// The invalidation of changed points: the tiles their positions reach
    /// (``PointIndex/tilesReached(space:reach:)``, found once a zoom, scale and reach).
    init(changed: PointIndex, settings: HeatmapSettings, reach: @escaping (TileKey, HeatmapSettings) -> Int?) {
        tilesReached = { space, pixels in
            let reached = changed.tilesReached(space: space, reach: pixels)
            return { x, y in reached.contains(y * space.tilesAcross + x) }
        }
        self.reach = reach
        self.settings = settings
    }

    /// The invalidation of a change that says itself which tiles it reaches (a table's rows,
    /// ``PartialUpdate/reaches``).
    init(
        reaches: @escaping @Sendable (PixelSpace, Int, Int, Int) -> Bool, settings: HeatmapSettings,
        reach: @escaping (TileKey, HeatmapSettings) -> Int?
    ) {
        tilesReached = { space, pixels in { x, y in reaches(space, pixels, x, y) } }
        self.reach = reach
        self.settings = settings
    }
}

extension TileCache where Key == TileKey {
    /// Drops the cached tiles drawn from layer `name` that `invalidation` reaches (each zoom,
    /// scale and reach worked out once): its own, and those of the layers `drawsFrom` names
    /// (stacks of it); and every tile of its own keyed by an epoch other than `epoch`. Returns
    /// how many were dropped. Call it where tiles of the layer are not being inserted (under
    /// the lock that a render's insert takes), so that none slips in between.
    func drop(
        layer name: String, epoch: Int, drawsFrom: (String) -> Bool, _ invalidation: TileInvalidation
    ) -> Int {
        var reached: [ReachGroup: (Int, Int) -> Bool] = [:]
        var drawn: [SettingOverrides: HeatmapSettings] = [:]
        var stacks: [String: Bool] = [:]
        return removeAll { key in
            if key.layer == name {
                guard key.generation == epoch else { return true }
            } else {
                let holds = stacks[key.layer] ?? drawsFrom(key.layer)
                stacks[key.layer] = holds
                guard holds else { return false }
            }
            var settings = invalidation.settings
            if !key.settings.isEmpty {
                settings = drawn[key.settings] ?? key.settings.applied(to: invalidation.settings)
                drawn[key.settings] = settings
            }
            guard let space = try? PixelSpace(zoom: key.zoom, scale: key.scale),
                let reach = invalidation.reach(key, settings)
            else { return true }
            let group = ReachGroup(space: space, reach: reach)
            let reaches = reached[group] ?? invalidation.tilesReached(space, reach)
            reached[group] = reaches
            return reaches(key.x, key.y)
        }
    }

    /// Whether a cached tile's key satisfies `predicate` (a pass over the keys).
    func contains(where predicate: (TileKey) -> Bool) -> Bool {
        var found = false
        removeAll { key in
            if !found, predicate(key) { found = true }
            return false
        }
        return found
    }
}

/// The tiles a change reaches are found once for each zoom, scale and reach among the cached.
private struct ReachGroup: Hashable {
    var space: PixelSpace
    var reach: Int
}
