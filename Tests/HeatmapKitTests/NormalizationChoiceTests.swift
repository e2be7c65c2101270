import HeatmapCore
import Testing

@testable import HeatmapKit

/// Colour scales, presets and the zoom range of M(z) through the layer, against the brute-force
/// reference.
@Suite struct NormalizationChoiceTests {
    static let melbourne = (x: 115, y: 78, zoom: 7)

    @Test("M(z) is the exact maximum at z clamped to minimumZoomIntensity...maximumZoomIntensity")
    func zoomRange() throws {
        let points = Fixtures.policeStations
        try #require(points.count == 345)
        var settings = HeatmapSettings()
        settings.minimumZoomIntensity = 5
        settings.maximumZoomIntensity = 8
        let ranged = HeatmapTileLayer(weightedData: points, settings: settings)
        let exact = HeatmapTileLayer(weightedData: points)
        for zoom in [0, 3, 5, 6, 8, 9, 12] {
            let clamped = min(max(zoom, 5), 8)
            let m = try ranged.normalization(zoom: zoom)
            #expect(m == (try exact.normalization(zoom: clamped)), "z \(zoom)")
            let reference = ReferenceRenderer.maximum(
                of: points, space: try PixelSpace(zoom: clamped, scale: 1), radius: 20)
            #expect(abs(m - reference) <= 1e-5 * reference, "z \(zoom): \(m) vs \(reference)")
        }
    }

    @Test("equal ends give one maximum for all zooms; a fixed maximum still wins")
    func oneMaximum() throws {
        var settings = HeatmapSettings()
        settings.minimumZoomIntensity = 6
        settings.maximumZoomIntensity = 6
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: settings)
        let m6 = try layer.normalization(zoom: 6)
        #expect(m6 > 0)
        for zoom in [0, 4, 9, 14] { #expect(try layer.normalization(zoom: zoom) == m6) }
        layer.maximumIntensity = 3
        #expect(try layer.normalization(zoom: 9) == 3)
    }

    @Test("zooms outside 0...22 or in the wrong order are named errors on the next tile")
    func invalidRange() {
        for (low, high) in [(-1, 5), (0, 23), (9, 5)] {
            let layer = HeatmapTileLayer(
                weightedData: Fixtures.policeStations,
                settings: HeatmapSettings(minimumZoomIntensity: low, maximumZoomIntensity: high))
            #expect(throws: HeatmapError.self) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        }
    }

    @Test(
        "every pixel is the definition's entry of I / M(z) under each scale and preset",
        arguments: [ColorScale.linear, .sqrt, .log], ["default", "viridis", "cividis"])
    func tilesFollowDefinition(scale: ColorScale, preset: String) throws {
        let gradient = try #require(Gradient.preset(named: preset, colorMapSize: 700))
        let settings = HeatmapSettings(gradient: gradient, colorScale: scale, minimumZoomIntensity: 8)
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: settings)
        let m = Self.melbourne
        let image = try #require(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom).decoded)
        let grid = try #require(try layer.intensity(x: m.x, y: m.y, zoom: m.zoom))
        let maximum = try layer.normalization(zoom: m.zoom)
        #expect(maximum == (try HeatmapTileLayer(weightedData: Fixtures.policeStations).normalization(zoom: 8)))
        let map = ColorMap(gradient: gradient, opacity: 0.7)
        var mismatches = 0
        var coloured = 0
        for i in 0..<grid.values.count {
            var expected: [UInt8] = [0, 0, 0, 0]
            if let e = ReferenceRenderer.colorEntry(
                intensity: Double(grid.values[i]), maximum: maximum, count: 700, scale: scale)
            {
                expected = Array(map.entries[(4 * e)..<(4 * e + 4)])
            }
            if Array(image.pixels[(4 * i)..<(4 * i + 4)]) != expected { mismatches += 1 }
            if expected[3] > 0 { coloured += 1 }
        }
        #expect(mismatches == 0 && coloured > 1000)
    }

    @Test("sqrt and log colour more of a sparse tile than linear, from the same intensities")
    func scalesLiftSparsePixels() throws {
        var visible: [ColorScale: Int] = [:]  // the sum of alpha over the tile
        for scale in ColorScale.allCases {
            let layer = HeatmapTileLayer(
                weightedData: Fixtures.policeStations, settings: HeatmapSettings(colorScale: scale))
            let image = try #require(try layer.tileFor(x: 115, y: 78, zoom: 7).decoded)
            visible[scale] = stride(from: 3, to: image.pixels.count, by: 4).reduce(0) { $0 + Int(image.pixels[$1]) }
        }
        #expect((visible[.linear] ?? 0) < (visible[.sqrt] ?? 0) && (visible[.sqrt] ?? 0) < (visible[.log] ?? 0))
    }
}
