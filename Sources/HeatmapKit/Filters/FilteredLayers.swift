import HeatmapCore
import Synchronization

/// A layer's filtered views: for each ``PointFilter`` asked for, a ``HeatmapTileLayer`` over the
/// points it keeps, with its own M(z) per zoom (computed once, by the one search), kept in a
/// bounded cache that drops the least recently used filter first.
///
/// The bound is on both the number of filters (``capacity``) and the memory their masked
/// copies hold (``capacityBytes``): each entry counts at least `capacityBytes / (capacity + ½)`,
/// so `capacity` of them fit with room for the cache's own tables, and one more does not.
///
/// ```swift
/// let views = FilteredLayers(source: file.filters!, settings: settings)
/// let filter = try request.resolved(against: views.facets)
/// if let layer = try views.layer(for: filter) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
/// ```
package final class FilteredLayers: Sendable {
    /// What a filter keeps: its layer, or nothing (every tile empty).
    package struct View: Sendable, CacheCost {
        /// The layer drawing the points kept, or `nil` when none of positive weight is.
        package let layer: HeatmapTileLayer?
        /// The masked copies' memory.
        package let byteCount: Int
        let floor: Int

        package var cacheCost: Int { max(byteCount, floor) }
    }

    /// What `/metrics` shows of the cache.
    package struct Counts: Sendable, Hashable {
        /// Filters found cached.
        package var hits = 0
        /// Filters built (not cached).
        package var misses = 0
        /// Filters dropped to stay within the bounds.
        package var evictions = 0
        /// Filters held now.
        package var entries = 0
        /// Their memory now, in bytes.
        package var bytes = 0

        /// All zero.
        package init() {}
    }

    /// The data filtered now (live points change it: ``replaceSource(with:dropping:)``).
    package var source: any FilterSource { current.withLock { $0 } }
    private let current: Mutex<any FilterSource>
    /// The settings the filtered layers start with (requests give theirs).
    private let settings: HeatmapSettings
    /// The most filters kept.
    package let capacity: Int
    /// The most memory kept, in bytes.
    package let capacityBytes: Int
    private let cache: TileCache<PointFilter, View>
    private let building = Mutex<Void>(())
    private let counters = Mutex(Counts())
    /// Filters dropped because the data changed under them (not evictions).
    private let invalidated = Atomic<Int>(0)

    /// Views of `source`, at most `capacity` filters and `capacityBytes` of masked copies (by
    /// default 64 and 256 MiB).
    package init(
        source: any FilterSource, settings: HeatmapSettings, capacity: Int = 64, capacityBytes: Int = 256 << 20
    ) {
        current = Mutex(source)
        self.settings = settings
        self.capacity = max(1, capacity)
        self.capacityBytes = max(1, capacityBytes)
        cache = TileCache(capacityBytes: self.capacityBytes)
    }

    /// The time range and category values of the data.
    package var facets: FilterFacets { source.facets }

    /// The view of `filter`: cached, or built now (once however many ask at the same time).
    ///
    /// - Throws: ``HeatmapError`` from the source.
    package func view(for filter: PointFilter) throws(HeatmapError) -> View {
        if let view = cache[filter] {
            counters.withLock { $0.hits += 1 }
            return view
        }
        return try building.withLock { _ throws(HeatmapError) -> View in
            if let view = cache[filter] {
                counters.withLock { $0.hits += 1 }
                return view
            }
            let kept = try current.withLock { $0 }.filteredSource(by: filter)
            // The server caches tiles by request; the view's own cache would hold them twice.
            let layer = kept.isEmpty ? nil : HeatmapTileLayer(source: kept.source, settings: settings, cacheBytes: 0)
            let view = View(layer: layer, byteCount: kept.byteCount, floor: 2 * capacityBytes / (2 * capacity + 1))
            cache.insert(view, for: filter)
            counters.withLock { $0.misses += 1 }
            return view
        }
    }

    /// The layer drawing `filter`'s points, or `nil` when it keeps none of positive weight.
    ///
    /// - Throws: ``HeatmapError`` from the source.
    package func layer(for filter: PointFilter) throws(HeatmapError) -> HeatmapTileLayer? {
        try view(for: filter).layer
    }

    /// The layer of `filter` if it is cached (`nil` inside when it keeps nothing), without
    /// building it.
    package func cachedLayer(for filter: PointFilter) -> HeatmapTileLayer?? {
        cache[filter].map(\.layer)
    }

    /// The cache's counts now.
    package var counts: Counts {
        var counts = counters.withLock { $0 }
        counts.entries = cache.count
        counts.bytes = cache.bytes
        counts.evictions = max(0, counts.misses - counts.entries - invalidated.load(ordering: .relaxed))
        return counts
    }

    /// Filters `source` from now on (the data with live points added), dropping the cached
    /// filters that `reached` says the change alters; the others keep their layers and M(z).
    /// A view being built finishes first, on the data before.
    package func replaceSource(with source: any FilterSource, dropping reached: (PointFilter) -> Bool) {
        building.withLock { _ in
            current.withLock { $0 = source }
            let dropped = cache.removeAll(where: reached)
            invalidated.add(dropped, ordering: .relaxed)
        }
    }
}

extension HeatmapTileLayer {
    /// `settings` for a tile of `filtered` at `zoom` and `scale`: with `scale-of=all`
    /// (``FilterScale/all``), normalised by this layer's M(z), that of every point, so that
    /// filters compare; with ``FilterScale/filter``, as they are (the filtered points' own M(z)).
    ///
    /// - Throws: ``HeatmapError`` from this layer's M(z).
    package func filterSettings(
        _ settings: HeatmapSettings, scale filterScale: FilterScale, zoom: Int, scale: Int
    ) throws(HeatmapError) -> HeatmapSettings {
        guard filterScale == .all, settings.maximumIntensity == nil, settings.aggregate == .sum else {
            return settings
        }
        let all = try normalizationDetails(zoom: zoom, scale: scale, settings: settings)
        guard all.value > 0 else { return settings }
        var fixed = settings
        fixed.maximumIntensity = all.value
        return fixed
    }
}
