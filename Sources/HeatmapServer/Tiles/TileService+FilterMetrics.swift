import HeatmapKit

extension TileService {
    /// The filter caches' counters in the Prometheus text format, over every layer that takes
    /// filters (``FilteredLayers``: the views of `datetime`/`category` requests, each with its
    /// masked copies and M(z) per zoom).
    func filterMetricsText() -> String {
        var total = FilteredLayers.Counts()
        for case let layer as ServedLayer in registry.layers {
            guard let counts = layer.filterCounts else { continue }
            total.hits += counts.hits
            total.misses += counts.misses
            total.evictions += counts.evictions
            total.entries += counts.entries
            total.bytes += counts.bytes
        }
        let rows: [(name: String, type: String, help: String, value: Int)] = [
            ("hits_total", "counter", "Filtered requests whose filter was cached.", total.hits),
            ("misses_total", "counter", "Filters built: masked copies made, M(z) to search.", total.misses),
            (
                "evictions_total", "counter", "Filters dropped, least recently used first, within the bound.",
                total.evictions
            ),
            ("entries", "gauge", "Filters cached now.", total.entries),
            ("bytes", "gauge", "Memory of the filters cached now (masked copies), in bytes.", total.bytes),
        ]
        return rows.map { row in
            let name = "heatmap_filter_cache_" + row.name
            return "# HELP \(name) \(row.help)\n# TYPE \(name) \(row.type)\n\(name) \(row.value)\n"
        }.joined()
    }
}
