import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// Percentile normalisation against a brute-force percentile over the zoom's stitched tiles.
@Suite struct PercentileTests {
    /// The nearest-rank percentile of the positive values: the k-th smallest, k = ⌈P/100 · N⌉.
    static func nearestRank(_ p: Double, _ values: [Double]) -> Double {
        let sorted = values.filter { $0 > 0 }.sorted()
        guard !sorted.isEmpty else { return 0 }
        let k = max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[min(k, sorted.count) - 1]
    }

    /// Every pixel of every tile of a zoom, drawn by the layer (tiles with nothing in reach are all 0).
    static func stitched(_ layer: HeatmapTileLayer, zoom: Int, scale: Int = 1) throws -> [Double] {
        var values: [Double] = []
        for y in 0..<(1 << zoom) {
            for x in 0..<(1 << zoom) {
                if let grid = try layer.intensity(x: x, y: y, zoom: zoom, scale: scale) {
                    values += grid.values.map(Double.init)
                }
            }
        }
        return values
    }

    @Test(
        "the P-th percentile is the nearest rank of the zoom's non-zero pixels, exactly",
        arguments: [(4, 50.0), (5, 90.0), (6, 99.0), (6, 100.0), (3, 0.001)])
    func exactOverStitchedTiles(zoom: Int, p: Double) throws {
        let points = Fixtures.policeStations
        try #require(points.count == 345)
        let layer = HeatmapTileLayer(weightedData: points, settings: HeatmapSettings(maximumPercentile: p))
        let details = try layer.normalizationDetails(zoom: zoom)
        let plain = HeatmapTileLayer(weightedData: points)
        let values = try Self.stitched(plain, zoom: zoom)
        #expect(details.value == Self.nearestRank(p, values), "z \(zoom) P \(p)")
        guard case .percentile(let found) = details.kind else {
            Issue.record("not a percentile: \(details.kind)")
            return
        }
        #expect(found.zoom == zoom && details.isExact)
        #expect(found.pixels == values.filter { $0 > 0 }.count)
        if p == 100 { #expect(abs(details.value - (try plain.normalization(zoom: zoom))) <= 1e-6 * details.value) }
    }

    @Test("the brute-force sum gives the same percentile (to float rounding)")
    func matchesReference() throws {
        let points = Fixtures.policeStations
        let zoom = 5
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let plain = HeatmapTileLayer(weightedData: points)
        var reference: [Double] = []
        for y in 0..<(1 << zoom) {
            for x in 0..<(1 << zoom) where try plain.intensity(x: x, y: y, zoom: zoom) != nil {
                reference += ReferenceRenderer.intensity(
                    of: points, in: PixelRect(tileX: x, y: y, in: space), space: space, radius: 20)
            }
        }
        for p in [25.0, 95.0] {
            let layer = HeatmapTileLayer(weightedData: points, settings: HeatmapSettings(maximumPercentile: p))
            let value = try layer.normalization(zoom: zoom)
            let want = Self.nearestRank(p, reference.map { $0 < 1e-30 ? 0 : $0 })
            #expect(abs(value - want) <= 1e-4 * want, "P \(p): \(value) vs \(want)")
        }
    }

    @Test("beyond the pixel limit the deepest zoom within it stands in, scaled by the exact maxima")
    func pixelLimit() throws {
        let points = Fixtures.policeStations
        let layer = HeatmapTileLayer(weightedData: points)
        let snapshot = try layer.snapshot()
        let source = try snapshot.data.source()
        let limit = 4 * 256 * 256  // four tiles a pass
        let reach = { (_: Int) throws(HeatmapError) -> Int in 20 }
        let p7 = try snapshot.data.percentile(
            90, source: source, space: try PixelSpace(zoom: 7, scale: 1), reach: reach, pixelLimit: limit)
        #expect(p7.zoom < 7)
        let coarse = try PixelSpace(zoom: p7.zoom, scale: 1)
        let base = try snapshot.data.percentile(90, source: source, space: coarse, reach: reach, pixelLimit: limit)
        #expect(base.zoom == p7.zoom && base.tiles <= 4)
        let ratio = try layer.normalization(zoom: 7) / (try layer.normalization(zoom: p7.zoom))
        #expect(abs(p7.value - base.value * ratio) <= 1e-9 * p7.value)
        #expect(base.value == Self.nearestRank(90, try Self.stitched(layer, zoom: p7.zoom)))
    }

    @Test("one value per zoom for every tile; a fixed maximum wins; tiles colour by it")
    func tilesUseIt() throws {
        let points = Fixtures.policeStations
        let layer = HeatmapTileLayer(weightedData: points, settings: HeatmapSettings(maximumPercentile: 90))
        let m = try layer.normalization(zoom: 7)
        let top = try HeatmapTileLayer(weightedData: points).normalization(zoom: 7)
        #expect(m > 0 && m < top)
        let grid = try #require(try layer.intensity(x: 115, y: 78, zoom: 7))
        let image = try #require(try layer.tileFor(x: 115, y: 78, zoom: 7).decoded)
        let map = ColorMap(gradient: .default, opacity: 0.7)
        var mismatches = 0
        for i in 0..<grid.values.count {
            var expected: [UInt8] = [0, 0, 0, 0]
            if let e = ReferenceRenderer.colorEntry(
                intensity: Double(grid.values[i]), maximum: m, count: 1000, scale: .linear)
            {
                expected = Array(map.entries[(4 * e)..<(4 * e + 4)])
            }
            if Array(image.pixels[(4 * i)..<(4 * i + 4)]) != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
        layer.maximumIntensity = 2
        #expect(try layer.normalization(zoom: 7) == 2)
    }

    @Test("percentiles outside 0 < P <= 100 are named errors on the next tile", arguments: [0.0, -1, 100.5, .nan])
    func invalid(p: Double) {
        let layer = HeatmapTileLayer(
            weightedData: Fixtures.policeStations, settings: HeatmapSettings(maximumPercentile: p))
        #expect(throws: HeatmapError.self) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        #expect(HeatmapError.invalidPercentile(p).description.contains("0 and at most 100"))
    }

    @Test("tileIfReady waits for the percentile in the background, then draws")
    func notYet() throws {
        let layer = HeatmapTileLayer(
            weightedData: Fixtures.policeStations, settings: HeatmapSettings(maximumPercentile: 95))
        var result = try layer.tileIfReady(x: 115, y: 78, zoom: 7)
        for _ in 0..<2000 where result == .notAvailableYet {
            usleep(5000)
            result = try layer.tileIfReady(x: 115, y: 78, zoom: 7)
        }
        #expect(result == (try layer.tileFor(x: 115, y: 78, zoom: 7)))
        #expect(result.png != nil)
    }
}
