import Foundation
import HeatmapCore
import Synchronization

/// The percentiles of one data set computed so far, one per zoom, scale, kernel reach (pixels) and P: each is
/// computed once (later callers wait for it) and kept while the data set lives, at most ``capacity`` of them:
/// beyond that the least recently used is dropped (counted in
/// ``HeatmapTileLayer/percentileCacheEvictions``) and searched again if asked for.
final class PercentileCache: Sendable {
    private struct Key: Hashable {
        var zoom: Int
        var scale: Int
        var reach: Int
        var percentile: Double
    }

    private final class Slot: Sendable {
        let value = Mutex<IntensityPercentile?>(nil)
        let known = Mutex(false)
        let started = Mutex(false)
    }

    private struct Entries {
        var slots: [Key: (slot: Slot, used: Int)] = [:]
        var clock = 0
        var evictions = 0
    }

    /// The most percentiles kept.
    let capacity: Int
    private let entries = Mutex(Entries())

    init(capacity: Int = HeatmapTileLayer.percentileCacheCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The percentiles dropped so far to stay within ``capacity``.
    var evictions: Int { entries.withLock { $0.evictions } }

    /// The slots kept.
    var count: Int { entries.withLock { $0.slots.count } }

    private func slot(zoom: Int, scale: Int, reach: Int, percentile: Double) -> Slot {
        let capacity = capacity
        return entries.withLock { entries in
            let key = Key(zoom: zoom, scale: scale, reach: reach, percentile: percentile)
            entries.clock += 1
            if let found = entries.slots[key] {
                entries.slots[key] = (found.slot, entries.clock)
                return found.slot
            }
            if entries.slots.count >= capacity,
                let oldest = entries.slots.min(by: { $0.value.used < $1.value.used })?.key
            {
                // A search under way in the dropped slot finishes for those waiting on it.
                entries.slots[oldest] = nil
                entries.evictions += 1
                HeatmapTileLayer.percentileEvictionCount.add(1, ordering: .relaxed)
            }
            let slot = Slot()
            entries.slots[key] = (slot, entries.clock)
            return slot
        }
    }

    /// Whether the value is known, so that a tile needs no search first (asking keeps no slot).
    func knows(zoom: Int, scale: Int, reach: Int, percentile: Double) -> Bool {
        let key = Key(zoom: zoom, scale: scale, reach: reach, percentile: percentile)
        guard let slot = entries.withLock({ $0.slots[key]?.slot }) else { return false }
        return slot.known.withLock { $0 }
    }

    /// The cached value, or `compute`'s (stored; a failure is not kept).
    func value(
        zoom: Int, scale: Int, reach: Int, percentile: Double,
        compute: () throws(HeatmapError) -> IntensityPercentile
    ) throws(HeatmapError) -> IntensityPercentile {
        let slot = slot(zoom: zoom, scale: scale, reach: reach, percentile: percentile)
        return try slot.value.withLock { (value) throws(HeatmapError) -> IntensityPercentile in
            if let value { return value }
            let computed = try compute()
            value = computed
            slot.known.withLock { $0 = true }
            return computed
        }
    }

    /// Whether this caller is the first to start the background computation (reset by `failed`).
    func claimStart(zoom: Int, scale: Int, reach: Int, percentile: Double) -> Bool {
        slot(zoom: zoom, scale: scale, reach: reach, percentile: percentile).started.withLock { started in
            defer { started = true }
            return !started
        }
    }

    /// Lets a later request start the computation again.
    func failed(zoom: Int, scale: Int, reach: Int, percentile: Double) {
        slot(zoom: zoom, scale: scale, reach: reach, percentile: percentile).started.withLock { $0 = false }
    }
}

extension LayerSource {
    /// Whether tile `x`, `y` of `space` has weight within `reach` pixels of it.
    func holdsWeight(x: Int, y: Int, space: PixelSpace, kernel: GaussianKernel) throws(HeatmapError) -> Bool {
        switch self {
        case .index(let index):
            return index.weight(in: PixelRect(tileX: x, y: y, in: space).expanded(by: kernel.radius), space: space) > 0
        case .external:
            // The padded area's weights are what the tile gathers: no weight, an empty grid.
            return !(try intensity(in: PixelRect(tileX: x, y: y, in: space), space: space, kernel: kernel)).isEmpty
        }
    }
}

extension DataSet {
    /// The P-th percentile of the non-zero intensities of `space`'s zoom (see
    /// ``IntensityPercentile``), computed once and cached; beyond the pixel limit, carried from
    /// the deepest coarser zoom within it by the ratio of the exact maxima.
    func percentile(
        _ percentile: Double, source: LayerSource, space: PixelSpace,
        reach reachAt: (_ zoom: Int) throws(HeatmapError) -> Int,
        pixelLimit: Int = IntensityPercentile.defaultPixelLimit
    ) throws(HeatmapError) -> IntensityPercentile {
        let reach = try reachAt(space.zoom)
        return try percentiles.value(zoom: space.zoom, scale: space.scale, reach: reach, percentile: percentile) {
            () throws(HeatmapError) -> IntensityPercentile in
            let kernel = GaussianKernel(radius: reach)
            let limit = max(1, pixelLimit / (space.tileSize * space.tileSize))
            let levels = try PercentileSearch.occupiedTiles(
                zoom: space.zoom, scale: space.scale, limit: limit
            ) { (x, y, level) throws(HeatmapError) -> Bool in
                try source.holdsWeight(x: x, y: y, space: level, kernel: kernel)
            }
            let deepest = levels.count - 1
            guard deepest >= 0 else {
                return IntensityPercentile(percentile: percentile, value: 0, zoom: 0, pixels: 0, tiles: 0)
            }
            if deepest < space.zoom {
                let coarse = try PixelSpace(zoom: deepest, scale: space.scale)
                let base = try self.percentile(
                    percentile, source: source, space: coarse, reach: reachAt, pixelLimit: pixelLimit)
                let high = Double(try maximumIntensity(source: source, space: space, reach: reach))
                let low = Double(
                    try maximumIntensity(source: source, space: coarse, reach: try reachAt(deepest)))
                var carried = base
                carried.value = low > 0 ? base.value * high / low : high
                return carried
            }
            let ranked = try PercentileSearch.rank(
                percentile, tiles: levels[deepest], space: space,
                threads: ProcessInfo.processInfo.activeProcessorCount
            ) { (rect) throws(HeatmapError) -> IntensityGrid in
                try source.intensity(in: rect, space: space, kernel: kernel)
            }
            return IntensityPercentile(
                percentile: percentile, value: Double(ranked.value), zoom: space.zoom, pixels: ranked.pixels,
                tiles: levels[deepest].count)
        }
    }

    /// Starts computing a percentile on a background queue, once however often it is asked.
    func startPercentile(
        _ percentile: Double, source: LayerSource, space: PixelSpace,
        reach reachAt: @escaping @Sendable (_ zoom: Int) throws(HeatmapError) -> Int
    ) {
        guard let reach = try? reachAt(space.zoom),
            percentiles.claimStart(zoom: space.zoom, scale: space.scale, reach: reach, percentile: percentile)
        else { return }
        DispatchQueue.global().async {
            if (try? self.percentile(percentile, source: source, space: space, reach: reachAt)) == nil {
                self.percentiles.failed(zoom: space.zoom, scale: space.scale, reach: reach, percentile: percentile)
            }
        }
    }
}
