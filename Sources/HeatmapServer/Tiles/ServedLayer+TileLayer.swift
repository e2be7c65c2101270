import HeatmapKit

/// The served heatmap as a ``TileLayer``: it draws at any scale (`256 × scale` pixels), its
/// images carry its opacity, and it takes the settings of a request (its own route's query, or
/// a stack's forwarded to it). The server caches what it draws; the layer itself keeps no tile.
extension ServedLayer: SyncTileLayer, LiveTileLayer, SettingsTakingLayer, OccupancyLayer, ReloadableLayer {
    /// 256 points.
    package var tileSize: Int { 256 }

    /// The layer's own opacity (already in its colours).
    package var opacity: Double { settings.opacity }

    /// `true`: the colour map applies the opacity.
    package var imagesIncludeOpacity: Bool { true }

    /// Advances with every change of the data.
    package var cacheGeneration: Int { generation }

    /// `256 × scale`.
    package func imageSize(scale: Int) -> Int { 256 * scale }

    /// The tile with the layer's own settings, drawn now.
    ///
    /// - Throws: ``HeatmapError`` for a tile off the grid or data that cannot be drawn.
    package func tileFor(_ request: TileRequest) throws -> TileResult {
        try drawn(request, settings: SettingOverrides()).result
    }

    /// The tile drawn with `settings` over the layer's own, from the data of the generation it
    /// returns (when a database source gives up because the data were swapped under it, drawn
    /// again on the new data, ``swapRetries`` times at most: a table that changed fails its
    /// pinned version's tile and swaps in the new one first).
    func drawnFollowingSwaps(_ request: TileRequest, settings: HeatmapSettings) throws(HeatmapError)
        -> (DrawnTile, generation: Int)
    {
        var generation = self.generation
        var retries = 0
        while true {
            do {
                let drawn = try heatmap.drawTile(
                    x: request.x, y: request.y, zoom: request.zoom, scale: request.scale, settings: settings)
                return (drawn, generation)
            } catch {
                let now = self.generation
                guard case .sourceFailed = error, now != generation, retries < Self.swapRetries else { throw error }
                generation = now
                retries += 1
            }
        }
    }

    /// How many times a tile is drawn again on newer data when the data moved under it. Each
    /// retry follows a swap (the generation moved), so they are bounded by the writes; a table
    /// written every few tenths of a second under a loaded machine can need more than two
    /// before one draw's snapshot begins in the version it was pinned to.
    static let swapRetries = 5

    /// The tile drawn now with `settings` over the layer's own, with what it was drawn from.
    func drawn(_ request: TileRequest, settings: SettingOverrides) throws(HeatmapError) -> RenderedTile {
        if !filterDefaults.isEmpty || settings.filter != nil {
            let filtered = filterDefaults.merging(settings)
            if let filter = filtered.filter { return try drawnFiltered(request, filter: filter, settings: filtered) }
        }
        let drawing = settings.isEmpty ? self.settings : settings.applied(to: self.settings)
        let (drawn, generation) = try drawnFollowingSwaps(request, settings: drawing)
        return RenderedTile(
            drawn.result,
            dependencies: .one(
                TileDependency(
                    layer: self, drawnAt: generation, normalization: drawn.normalization, settings: settings)))
    }

    /// The layer drawn with `overrides` over its own settings; settings its data cannot draw
    /// (the mean of a layer without values, metres without a latitude) are the request's fault.
    package func taking(_ overrides: SettingOverrides) -> any TileLayer {
        overrides.isEmpty ? self : Drawing(layer: self, overrides: overrides)
    }

    /// The tiles whose area padded by the kernel's reach holds weight.
    package func occupancy(zooms: ClosedRange<Int>, scale: Int) throws(HeatmapError) -> TileOccupancy? {
        try heatmap.occupancy(zooms: zooms, scale: scale, settings: settings)
    }

    /// The render pool for points in memory, the global queue for a database.
    var workload: RenderWorkload { current.data.source == nil ? .cpu : .io }

    /// The points drawn.
    var pointCount: Int { current.data.count }

    /// The percentile search drawing with `settings` at `zoom` and `scale` would need first, or
    /// `nil`: one search serves every zoom normalised at the same zoom, whatever the colours.
    func percentileSearch(zoom: Int, scale: Int, settings overrides: SettingOverrides) -> PercentileAdmission.Key? {
        if overrides.isEmpty, self.settings.maximumPercentile == nil { return nil }
        let settings = overrides.applied(to: self.settings)
        guard settings.maximumPercentile != nil,
            heatmap.needsPercentileSearch(zoom: zoom, scale: scale, settings: settings)
        else { return nil }
        var searched = settings
        searched.gradient = self.settings.gradient
        searched.opacity = self.settings.opacity
        searched.colorScale = self.settings.colorScale
        return PercentileAdmission.Key(
            layer: name, generation: generation, zoom: settings.normalizationZoom(zoom), scale: scale,
            settings: searched)
    }

    /// The heatmap drawn with a request's settings, as a member of a stack (or a render).
    struct Drawing: SyncTileLayer {
        let layer: ServedLayer
        let overrides: SettingOverrides

        var name: String { layer.name }
        var zIndex: Int { layer.zIndex }
        var imagesIncludeOpacity: Bool { true }
        var cacheGeneration: Int { layer.cacheGeneration }
        func imageSize(scale: Int) -> Int { 256 * scale }

        func tileFor(_ request: TileRequest) throws -> TileResult {
            do throws(HeatmapError) {
                return try layer.drawn(request, settings: overrides).result
            } catch {
                throw ServedLayer.requestError(error, layer: layer.name)
            }
        }
    }

    /// A drawing error as a stack reports it: settings the data cannot draw, or a tile off the
    /// grid, are the request's fault (400).
    static func requestError(_ error: HeatmapError, layer: String) -> any Error {
        switch error {
        case .invalidMean, .invalidGroundRadius, .invalidFilter, .tileOutOfRange:
            return TileLayerError.invalidRequest("layer \(layer): \(error.description)")
        default: return error
        }
    }
}
