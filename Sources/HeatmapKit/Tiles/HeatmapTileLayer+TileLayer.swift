/// The heatmap as a ``TileLayer``: it draws at any scale (`256 × scale` pixels) and its images
/// already carry its ``HeatmapTileLayer/opacity`` (the colour map applies it).
extension HeatmapTileLayer: TileLayer {
    /// "heatmap".
    public var name: String { "heatmap" }

    /// The layer's place in a stack, default 0; may be changed at any time.
    public var zIndex: Int {
        get { tileLayerZIndex.load(ordering: .relaxed) }
        set { tileLayerZIndex.store(newValue, ordering: .relaxed) }
    }

    /// `true`: the colour map applies ``HeatmapTileLayer/opacity`` to every pixel.
    public var imagesIncludeOpacity: Bool { true }

    /// Advances whenever the data or settings change or the cache is cleared.
    public var cacheGeneration: Int { state.withLock { $0.generation } }

    /// `256 × scale`: the heatmap draws at every scale.
    public func imageSize(scale: Int) -> Int { tileSize * scale }

    /// ``tileFor(x:y:zoom:scale:settings:)`` with the layer's settings.
    public func tileFor(_ request: TileRequest) throws -> TileResult {
        try tileFor(x: request.x, y: request.y, zoom: request.zoom, scale: request.scale)
    }

    /// ``tile(x:y:zoom:scale:settings:)`` with the layer's settings.
    public func tile(_ request: TileRequest) async throws -> TileResult {
        try await tile(x: request.x, y: request.y, zoom: request.zoom, scale: request.scale)
    }
}
