import Synchronization

extension HeatmapTileLayer {
    /// The most percentiles (one per zoom, scale, reach and P) a layer's data keeps: 64, the
    /// least recently used dropped beyond that and searched again if asked for.
    package static let percentileCacheCapacity = 64

    /// The percentiles dropped from every layer's cache in this process so far (a counter for
    /// metrics: `heatmap_percentile_cache_evictions_total`).
    package static var percentileCacheEvictions: Int { percentileEvictionCount.load(ordering: .relaxed) }

    static let percentileEvictionCount = Atomic<Int>(0)
}
