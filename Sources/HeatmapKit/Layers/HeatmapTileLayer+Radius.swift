import HeatmapCore

extension HeatmapTileLayer {
    /// The kernel's radius in ground metres (see `GroundRadius`), or `nil` (the default) for
    /// ``radius`` in points. Set, the reach in pixels follows the zoom: ⌊metres / (metres per
    /// pixel at the reference latitude) + ½⌋, at least 1, at most 128 × scale.
    public var radiusMeters: Double? {
        get { settings.radiusMeters }
        set { update { $0.settings.radiusMeters = newValue } }
    }

    /// The latitude (degrees) where ``radiusMeters`` are measured, or `nil` (the default) for
    /// the middle of the data's latitudes.
    public var radiusLatitude: Double? {
        get { settings.radiusLatitude }
        set { update { $0.settings.radiusLatitude = newValue } }
    }

    /// R, the kernel's reach in pixels at a zoom and scale for the current settings and data
    /// (``radius`` × scale, or from ``radiusMeters``).
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, zoom or scale.
    public func kernelRadius(zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil) throws(HeatmapError) -> Int {
        _ = try PixelSpace(zoom: zoom, scale: scale)
        return try snapshot(overriding: settings).reach(zoom: zoom, scale: scale)
    }
}
