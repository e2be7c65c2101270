/// What ``HeatmapTileLayer/add(_:)`` or ``HeatmapTileLayer/remove(_:)`` did.
public struct LiveChange: Sendable, Hashable {
    /// The points added (by `add`) or removed (by `remove`).
    public var count: Int
    /// The points the layer holds now.
    public var pointCount: Int
    /// The layer's ``HeatmapTileLayer/cacheGeneration`` after the change, which every change
    /// advances.
    public var generation: Int
    /// The cached tiles the change dropped (those whose area, padded by the radius, holds a
    /// changed point); the others stay cached.
    public var tilesDropped: Int

    /// Creates a description of a change.
    package init(count: Int, pointCount: Int, generation: Int, tilesDropped: Int) {
        self.count = count
        self.pointCount = pointCount
        self.generation = generation
        self.tilesDropped = tilesDropped
    }
}

/// A tile image kept by the layer's cache, with the M(z) its colours used (`nil` for no tile,
/// which no M(z) changes), so that an image drawn before an append that raised M(z) is not
/// served after it.
struct CachedTile: CacheCost {
    var result: TileResult
    var maximum: Double?

    /// The PNG's storage.
    var cacheCost: Int { result.cacheCost }
}
