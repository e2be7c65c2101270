import HeatmapKit

extension TileService {
    /// The percentile searches' counters in the Prometheus text format: tiles and legends
    /// refused (503) while too many searches ran, and percentiles dropped from the layers'
    /// caches (``HeatmapTileLayer/percentileCacheCapacity`` a data set).
    func percentileMetricsText() -> String {
        "# HELP heatmap_percentile_refusals_total Tiles and legends refused (503) because "
            + "\(percentileSearches.limit) other percentile searches were running.\n"
            + "# TYPE heatmap_percentile_refusals_total counter\n"
            + "heatmap_percentile_refusals_total \(percentileSearches.refused)\n"
            + "# HELP heatmap_percentile_cache_evictions_total Percentiles dropped from the layers' caches "
            + "(least recently used beyond \(HeatmapTileLayer.percentileCacheCapacity) a data set).\n"
            + "# TYPE heatmap_percentile_cache_evictions_total counter\n"
            + "heatmap_percentile_cache_evictions_total \(HeatmapTileLayer.percentileCacheEvictions)\n"
    }
}
