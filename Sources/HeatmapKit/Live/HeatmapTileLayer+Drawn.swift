import HeatmapCore

/// A tile drawn for a cache outside the layer (a server's), with what its colours depend on
/// beyond the pixels a change can reach.
package struct DrawnTile: Sendable, Hashable {
    /// The tile.
    public var result: TileResult
    /// The M(z) its colours were divided by: `nil` for no tile, and for the mean (whose
    /// colours come from the value range, not M(z)). A cached image stands after a live
    /// change that did not reach it only while M(z) is still this value.
    public var normalization: Double?

    /// Creates a drawn tile.
    public init(result: TileResult, normalization: Double?) {
        self.result = result
        self.normalization = normalization
    }
}

extension HeatmapTileLayer {
    /// The tile as ``tileFor(x:y:zoom:scale:settings:)`` draws it, never from the layer's own
    /// cache, with the M(z) its colours used: for a cache of its own that keeps the tiles a
    /// live change does not reach (see ``add(_:)``) and checks M(z) before serving them.
    ///
    /// - Throws: ``HeatmapError`` as ``tileFor(x:y:zoom:scale:settings:)``.
    package func drawTile(x: Int, y: Int, zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError) -> DrawnTile
    {
        let snapshot = try snapshot(overriding: settings)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        guard (0..<space.tilesAcross).contains(x), (0..<space.tilesAcross).contains(y) else {
            throw .tileOutOfRange(x: x, y: y, zoom: zoom)
        }
        let (tile, maximum) = try render(x: x, y: y, space: space, snapshot: snapshot)
        drawnTiles.add(1, ordering: .relaxed)
        return DrawnTile(result: tile, normalization: maximum)
    }

    /// M(z) of the tiles of a zoom and scale, the value their colours are divided by (`nil`
    /// for the mean, which needs none); computed if not known yet (see
    /// ``normalizationDetails(zoom:scale:settings:)``).
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, data or zoom.
    package func normalizationValue(zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError) -> Double?
    {
        let snapshot = try snapshot(overriding: settings)
        if snapshot.settings.aggregate == .mean { return nil }
        return try normalization(snapshot, try PixelSpace(zoom: zoom, scale: scale))
    }

    /// M(z) as ``normalizationValue(zoom:scale:settings:)`` gives it if it is known without
    /// waiting; else `nil`, and its computation starts in the background. `nil` for the mean.
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, data or zoom.
    package func normalizationIfReady(zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError) -> Double?
    {
        let snapshot = try snapshot(overriding: settings)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        guard snapshot.settings.aggregate == .sum, snapshot.normalizationIsReady(zoom: zoom, scale: scale) else {
            return nil
        }
        return try normalization(snapshot, space)
    }

    /// The middle of the data's latitudes, where ``radiusMeters`` are measured while
    /// ``radiusLatitude`` is `nil` (a pass over the points, once per version of the data).
    ///
    /// - Throws: ``HeatmapError/invalidGroundRadius(_:)`` for a layer drawn from another
    ///   source, whose latitudes are not at hand.
    package func centreLatitude() throws(HeatmapError) -> Double {
        try snapshot().data.centreLatitude()
    }
}
