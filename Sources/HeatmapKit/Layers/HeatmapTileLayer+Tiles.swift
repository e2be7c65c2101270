import Dispatch
import HeatmapCore

extension HeatmapTileLayer {
    /// What one request works from: a consistent version of the data and settings.
    struct Snapshot {
        var data: DataSet
        var settings: HeatmapSettings
        var generation: Int
        var cacheEpoch: Int
        var colorMap: ColorMap
    }

    /// Takes the current version, checking the settings (the layer's, or `override` with the
    /// layer's data) and making each colour map once.
    func snapshot(overriding override: HeatmapSettings? = nil) throws(HeatmapError) -> Snapshot {
        try state.withLock { (state) throws(HeatmapError) -> Snapshot in
            let settings = override ?? state.settings
            try settings.validate()
            let key = ColorMapKey(gradient: settings.gradient, opacity: settings.opacity, scale: settings.colorScale)
            let map: ColorMap
            if let made = state.colorMaps[key] {
                map = made
            } else {
                map = ColorMap(gradient: key.gradient, opacity: key.opacity, scale: key.scale)
                // A few live settings at a time; a page tuning colours makes many, so start afresh.
                if state.colorMaps.count >= 16 { state.colorMaps.removeAll() }
                state.colorMaps[key] = map
            }
            return Snapshot(
                data: state.data, settings: settings, generation: state.generation, cacheEpoch: state.cacheEpoch,
                colorMap: map)
        }
    }

    /// The tile at `x`, `y` (0...2^zoom − 1, from the north-west) and `zoom` (0...22), at
    /// `scale` 1, 2 or 3 (256, 512 or 768 pixels). Waits for the index if it is not built.
    ///
    /// - Parameters:
    ///   - x: the column, 0...2^zoom − 1, from the west.
    ///   - y: the row, 0...2^zoom − 1, from the north.
    ///   - zoom: 0...22.
    ///   - scale: 1, 2 or 3 (default 1).
    ///   - settings: settings for this request only (a server's query parameters, say),
    ///     drawn from the layer's data; `nil` (the default) for the layer's own. Tiles are cached
    ///     per settings, and M(z) per radius, so changing only colours costs no new M(z).
    /// - Returns: ``TileResult/image(_:)`` or ``TileResult/noTile``.
    /// - Throws: ``HeatmapError`` for invalid settings, data or tile coordinates.
    public func tileFor(x: Int, y: Int, zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError)
        -> TileResult
    {
        let snapshot = try snapshot(overriding: settings)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        guard (0..<space.tilesAcross).contains(x), (0..<space.tilesAcross).contains(y) else {
            throw .tileOutOfRange(x: x, y: y, zoom: zoom)
        }
        let key = TileKey(
            generation: snapshot.cacheEpoch, settings: snapshot.settings, zoom: zoom, x: x, y: y, scale: scale)
        // A cached image stands while M(z) is the one it was drawn with (live appends may raise it).
        if let cached = cache[key] {
            guard let used = cached.maximum else { return cached.result }
            if try normalization(snapshot, space) == used { return cached.result }
        }
        let (tile, maximum) = try render(x: x, y: y, space: space, snapshot: snapshot)
        drawnTiles.add(1, ordering: .relaxed)
        // A tile of data or settings changed meanwhile may be stale: never cache it. Checked and
        // stored under the state's lock, as live changes drop the tiles they reach under it.
        state.withLock { state in
            if state.generation == snapshot.generation {
                cache.insert(CachedTile(result: tile, maximum: maximum), for: key)
            }
        }
        return tile
    }

    /// The tile as ``tileFor(x:y:zoom:scale:settings:)`` gives it, computed off the caller's thread.
    ///
    /// - Returns: ``TileResult/notAvailableYet`` if the task is cancelled before the work starts.
    public func tile(x: Int, y: Int, zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        async throws(HeatmapError)
        -> TileResult
    {
        if Task.isCancelled { return .notAvailableYet }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<TileResult, HeatmapError>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(HeatmapError) in
                        try self.tileFor(x: x, y: y, zoom: zoom, scale: scale, settings: settings)
                    })
            }
        }
        return try result.get()
    }

    /// The tile if it can be had without a long wait: while the data's index or the zoom's
    /// M(z) is missing, that work starts in the background and the answer is
    /// ``TileResult/notAvailableYet`` (ask again later, as map SDKs do for Google's `nil`).
    /// Otherwise the tile is drawn now (a few milliseconds) or comes from the cache.
    public func tileIfReady(x: Int, y: Int, zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError) -> TileResult
    {
        let snapshot = try snapshot(overriding: settings)
        let data = snapshot.data
        guard data.isIndexed else {
            data.startIndexing()
            return .notAvailableYet
        }
        // A zoom the range would clamp into 0...22 is still an error, as from tileFor.
        _ = try PixelSpace(zoom: zoom, scale: scale)
        guard snapshot.normalizationIsReady(zoom: zoom, scale: scale) else { return .notAvailableYet }
        return try tileFor(x: x, y: y, zoom: zoom, scale: scale, settings: settings)
    }

    /// Draws one tile from a snapshot: intensities, normalisation, colours, PNG; with the
    /// M(z) its colours used (`nil` for no tile, and for the mean, whose colours need none).
    func render(x: Int, y: Int, space: PixelSpace, snapshot: Snapshot) throws(HeatmapError) -> (TileResult, Double?) {
        if snapshot.settings.aggregate == .mean {
            return (try renderMean(x: x, y: y, space: space, snapshot: snapshot), nil)
        }
        let source = try snapshot.data.source()
        let reach = try snapshot.reach(zoom: space.zoom, scale: space.scale)
        return try renderSum(
            source: source, rect: PixelRect(tileX: x, y: y, in: space), space: space,
            kernel: GaussianKernel(radius: reach), snapshot: snapshot)
    }

    /// M(z) of a snapshot at a tile's zoom and scale: the fixed maximum, or at the
    /// normalisation zoom the percentile or the data's maximum (computed once per data set, zoom
    /// and reach; see ``Snapshot/normalization(for:source:)``).
    func normalization(_ snapshot: Snapshot, _ space: PixelSpace) throws(HeatmapError) -> Double {
        try snapshot.normalization(for: space, source: try snapshot.data.source()).value
    }
}
