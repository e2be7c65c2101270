import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// The percentiles a data set keeps are bounded (least recently used dropped, and counted).
@Suite struct PercentileCacheBoundTests {
    static func value(_ p: Double) -> IntensityPercentile {
        IntensityPercentile(percentile: p, value: p, zoom: 3, pixels: 1, tiles: 1)
    }

    @Test("beyond its capacity the cache drops the least recently used percentile and counts it")
    func leastRecentlyUsed() throws {
        let cache = PercentileCache(capacity: 3)
        let before = HeatmapTileLayer.percentileCacheEvictions
        var computed = 0
        func ask(_ p: Double) throws -> Double {
            try cache.value(zoom: 3, scale: 1, reach: 20, percentile: p) { () throws(HeatmapError) in
                computed += 1
                return Self.value(p)
            }.value
        }
        for p in [90.0, 91, 92] { #expect(try ask(p) == p) }
        #expect(try ask(90) == 90)  // 90 is now the most recently used; 91 the least
        #expect(computed == 3 && cache.evictions == 0 && cache.count == 3)
        #expect(try ask(93) == 93)
        #expect(cache.evictions == 1 && cache.count == 3)
        #expect(!cache.knows(zoom: 3, scale: 1, reach: 20, percentile: 91))
        #expect(cache.knows(zoom: 3, scale: 1, reach: 20, percentile: 90))
        #expect(cache.knows(zoom: 3, scale: 1, reach: 20, percentile: 92))
        // Asking whether a value is known keeps no slot, so it evicts nothing.
        for p in 0..<10 { #expect(!cache.knows(zoom: 4, scale: 1, reach: 20, percentile: Double(p))) }
        #expect(cache.evictions == 1 && cache.count == 3)
        // A dropped value is computed again when asked for.
        #expect(try ask(91) == 91)
        #expect(computed == 5 && cache.evictions == 2)
        #expect(HeatmapTileLayer.percentileCacheEvictions >= before + 2)
        #expect(PercentileCache().capacity == HeatmapTileLayer.percentileCacheCapacity)
        #expect(HeatmapTileLayer.percentileCacheCapacity == 64)
    }

    @Test("a layer asked for more distinct percentiles than the capacity stays bounded and draws the same")
    func layerBounded() throws {
        var points: [WeightedLatLng] = []
        for i in 0..<200 {
            points.append(
                WeightedLatLng(
                    coordinate: Coordinate(
                        latitude: -37.8 + Double(i % 20) * 0.01, longitude: 144.9 + Double(i / 20) * 0.01),
                    intensity: Double(1 + i % 7)))
        }
        let layer = HeatmapTileLayer(weightedData: points)
        let first = try layer.normalizationDetails(zoom: 2, scale: 1, settings: HeatmapSettings(maximumPercentile: 50))
        for p in 0..<70 {
            _ = try layer.normalizationDetails(
                zoom: 2, scale: 1, settings: HeatmapSettings(maximumPercentile: 60 + Double(p) * 0.5))
        }
        let data = layer.state.withLock { $0.data }
        #expect(data.percentiles.count <= HeatmapTileLayer.percentileCacheCapacity)
        #expect(data.percentiles.evictions >= 70 + 1 - HeatmapTileLayer.percentileCacheCapacity)
        // 50 was dropped long ago; asked again, it is the same value.
        let again = try layer.normalizationDetails(zoom: 2, scale: 1, settings: HeatmapSettings(maximumPercentile: 50))
        #expect(again == first)
    }
}
