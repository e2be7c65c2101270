import HeatmapCore

extension HeatmapTileLayer {
    /// Whether drawing a tile of `zoom` and `scale` with `settings` (the layer's when `nil`)
    /// would first search the zoom for a percentile not yet known: a whole-zoom pass, the
    /// cost a server bounds. Starts nothing; `false` without a percentile, for the mean and
    /// for invalid settings (the tile's own error says why).
    package func needsPercentileSearch(zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil) -> Bool {
        guard let snapshot = try? snapshot(overriding: settings), let p = snapshot.settings.maximumPercentile,
            snapshot.settings.maximumIntensity == nil, snapshot.settings.aggregate == .sum
        else { return false }
        let normalizationZoom = snapshot.settings.normalizationZoom(zoom)
        guard let reach = try? snapshot.reach(zoom: normalizationZoom, scale: scale) else { return false }
        return !snapshot.data.percentiles.knows(zoom: normalizationZoom, scale: scale, reach: reach, percentile: p)
    }
}
