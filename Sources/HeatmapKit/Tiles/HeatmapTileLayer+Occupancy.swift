import HeatmapCore

extension HeatmapTileLayer: OccupancyLayer {
    /// The tiles whose area padded by the kernel's reach holds weight, for the layer's settings.
    package func occupancy(zooms: ClosedRange<Int>, scale: Int) throws(HeatmapError) -> TileOccupancy? {
        try occupancy(zooms: zooms, scale: scale, settings: nil)
    }

    /// The tiles whose area padded by the kernel's reach (R(z) for `settings`, the layer's own
    /// when `nil`) holds weight in the current data; `nil` for a source that cannot say.
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, zooms or scale, or invalid points.
    package func occupancy(zooms: ClosedRange<Int>, scale: Int, settings: HeatmapSettings?) throws(HeatmapError)
        -> TileOccupancy?
    {
        let snapshot = try snapshot(overriding: settings)
        guard let holdsWeight = try snapshot.data.presence() else { return nil }
        return try TileOccupancy(
            zooms: zooms, scale: scale,
            reach: { (zoom) throws(HeatmapError) in try snapshot.reach(zoom: zoom, scale: scale) },
            holdsWeight: holdsWeight)
    }
}

extension DataSet {
    /// Whether a rectangle holds weight in these data: the index (both, for live data), or the
    /// other source when it can say; `nil` when it cannot.
    func presence() throws(HeatmapError) -> (@Sendable (PixelRect, PixelSpace) throws(HeatmapError) -> Bool)? {
        if let live { return { rect, space in live.holdsWeight(in: rect, space: space) } }
        if let external { return external.holdsWeight }
        let index = try index()
        return { rect, space in index.holdsWeight(in: rect, space: space) }
    }
}
