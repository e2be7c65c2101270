import HeatmapCore

extension HeatmapTileLayer {
    /// The raw intensities of a tile, before normalisation and colour, for checking and
    /// analysis; `nil` when nothing lies within reach (``TileResult/noTile``).
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, data or tile coordinates.
    public func intensity(x: Int, y: Int, zoom: Int, scale: Int = 1) throws(HeatmapError) -> IntensityGrid? {
        let snapshot = try snapshot()
        let space = try PixelSpace(zoom: zoom, scale: scale)
        guard (0..<space.tilesAcross).contains(x), (0..<space.tilesAcross).contains(y) else {
            throw .tileOutOfRange(x: x, y: y, zoom: zoom)
        }
        let grid = try snapshot.data.source().intensity(
            in: PixelRect(tileX: x, y: y, in: space), space: space,
            kernel: GaussianKernel(radius: snapshot.reach(zoom: zoom, scale: scale)))
        return grid.isEmpty ? nil : grid
    }

    /// M(z): the normalisation value used at a zoom and scale, the fixed
    /// ``maximumIntensity`` if set, else at `HeatmapSettings/normalizationZoom(_:)` the
    /// ``HeatmapSettings/maximumPercentile``-th percentile if set, else the data's largest
    /// intensity (0 without data). ``normalizationDetails(zoom:scale:settings:)`` says which.
    public func normalization(zoom: Int, scale: Int = 1) throws(HeatmapError) -> Double {
        try normalizationDetails(zoom: zoom, scale: scale).value
    }
}
