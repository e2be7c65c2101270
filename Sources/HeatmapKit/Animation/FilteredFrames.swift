import HeatmapCore

/// The frames of points that can be filtered: for each window, the points it and the request's
/// categories keep, drawn as a layer of their own (over a base map when there is one). The
/// command and the server both draw animations with it, so their frames are the same.
package struct FilteredFrames: AnimationFrames {
    /// The points filtered.
    let source: any FilterSource
    /// The category masks every frame applies (see ``PointFilter/masks``).
    let masks: [[Bool]?]
    /// The settings frames are drawn with (see ``HeatmapAnimation/frameSettings(_:)``).
    let settings: HeatmapSettings
    /// A map drawn under every frame, or `nil`.
    let base: (any TileLayer)?

    /// Frames of `source`'s points, with `masks` over its categories.
    package init(
        source: any FilterSource, masks: [[Bool]?], settings: HeatmapSettings, base: (any TileLayer)? = nil
    ) {
        self.source = source
        self.masks = masks
        self.settings = settings
        self.base = base
    }

    /// The layer of `window`'s points, or `nil` when it keeps none of positive weight.
    func layer(_ window: FramePlan.Window, maximumIntensity: Double?) throws -> HeatmapTileLayer? {
        let kept = try source.filteredSource(by: PointFilter(window: window.timeWindow, masks: masks))
        guard !kept.isEmpty else { return nil }
        var settings = self.settings
        if let maximumIntensity { settings.maximumIntensity = maximumIntensity }
        // Drawn once: a cache would only hold the frame's tiles.
        return HeatmapTileLayer(source: kept.source, settings: settings, cacheBytes: 0)
    }

    /// M(z) of the window's points as a still image of them would have it; 0 for none.
    package func normalization(of window: FramePlan.Window, zoom: Int, scale: Int) throws -> Double {
        try layer(window, maximumIntensity: nil)?.normalizationDetails(zoom: zoom, scale: scale).value ?? 0
    }

    /// The window's points over the base map, or the base map alone (transparent without one)
    /// when the window keeps none.
    package func image(of window: FramePlan.Window, viewport: Viewport, maximumIntensity: Double) throws
        -> RGBAImage?
    {
        let heatmap = try layer(window, maximumIntensity: maximumIntensity)
        switch (base, heatmap) {
        case (let base?, let heatmap?): return try TileStack([base, heatmap], cacheBytes: 0).imageFor(viewport)
        case (let base?, nil): return try base.imageFor(viewport)
        case (nil, let heatmap?): return try heatmap.imageFor(viewport)
        case (nil, nil): return RGBAImage(transparentWidth: viewport.pixelWidth, height: viewport.pixelHeight)
        }
    }
}
