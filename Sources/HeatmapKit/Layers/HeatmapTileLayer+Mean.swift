import HeatmapCore

extension HeatmapTileLayer {
    /// Creates a layer over points with values (``ValueIndex``), which can draw
    /// ``Aggregate/mean`` as well as the density.
    ///
    /// - Parameters:
    ///   - values: the points and their values.
    ///   - settings: every setting at once (default Google's; ``HeatmapSettings/aggregate`` picks the mean).
    ///   - cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    public convenience init(values: ValueIndex, settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20) {
        self.init(index: values.density, settings: settings, cacheBytes: cacheBytes)
        state.withLock { $0.data = DataSet(values: values) }
    }

    /// Replaces the data with points and values, atomically, as ``replaceData(with:)`` does.
    package func replaceData(withValues values: ValueIndex) {
        update { $0.data = DataSet(values: values) }
    }

    /// What a pixel shows: ``Aggregate/sum`` (the default) or ``Aggregate/mean``.
    public var aggregate: Aggregate {
        get { settings.aggregate }
        set { update { $0.settings.aggregate = newValue } }
    }

    /// With ``Aggregate/mean``: pixels whose density Σ wᵢ·K is below this stay clear (default 0).
    public var minimumDensity: Double {
        get { settings.minimumDensity }
        set { update { $0.settings.minimumDensity = newValue } }
    }

    /// With ``Aggregate/mean``: the values at the ends of the ramp, or `nil` (the default) for
    /// the data's smallest and largest value.
    public var valueRange: ClosedRange<Double>? {
        get { settings.valueRange }
        set { update { $0.settings.valueRange = newValue } }
    }

    /// The values at the ends of the ramp for the mean: ``valueRange``, else the data's
    /// smallest and largest value; `nil` when the data have no values.
    package func meanRange(settings: HeatmapSettings? = nil) throws(HeatmapError) -> ClosedRange<Double>? {
        let snapshot = try snapshot(overriding: settings)
        guard let values = snapshot.data.valueBounds else { return nil }
        return snapshot.settings.valueRange ?? values
    }

    /// The kernel-weighted mean of a tile's pixels (NaN where clear), before colour; `nil`
    /// when no pixel is shown.
    ///
    /// - Throws: ``HeatmapError/invalidMean(_:)`` when the data have no values, and
    ///   ``HeatmapError`` for invalid settings or tile coordinates.
    public func mean(x: Int, y: Int, zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError) -> MeanGrid?
    {
        let snapshot = try snapshot(overriding: settings)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        guard (0..<space.tilesAcross).contains(x), (0..<space.tilesAcross).contains(y) else {
            throw .tileOutOfRange(x: x, y: y, zoom: zoom)
        }
        let grid = try meanGrid(x: x, y: y, space: space, snapshot: snapshot)
        return grid.isEmpty ? nil : grid
    }

    func meanGrid(x: Int, y: Int, space: PixelSpace, snapshot: Snapshot) throws(HeatmapError) -> MeanGrid {
        guard snapshot.data.valueBounds != nil else {
            throw .invalidMean("the data have no values: read them with a value column (--value COL)")
        }
        let kernel = GaussianKernel(radius: try snapshot.reach(zoom: space.zoom, scale: space.scale))
        return try snapshot.data.mean(
            in: PixelRect(tileX: x, y: y, in: space), space: space, kernel: kernel,
            minimumDensity: snapshot.settings.minimumDensity)
    }

    /// Draws one tile of the mean: both channels, the mean where the density is enough, its
    /// place in the value range picking the colour as I/M does, PNG.
    func renderMean(x: Int, y: Int, space: PixelSpace, snapshot: Snapshot) throws(HeatmapError) -> TileResult {
        let grid = try meanGrid(x: x, y: y, space: space, snapshot: snapshot)
        if grid.isEmpty { return .noTile }
        let range = snapshot.settings.valueRange ?? snapshot.data.valueBounds ?? 0...0
        let image = snapshot.colorMap.colorize(grid.positions(in: range), maximum: 1)
        do {
            return .image(try PNGEncoder().encode(image))
        } catch {
            throw .encodingFailed(error.description)
        }
    }
}
