import Foundation
import HeatmapCore
import HeatmapKit
import Testing

/// `radiusMeters` through the layer: the brute-force definition with R(z) from metres, seams,
/// M(z) exact per zoom, the caches keyed by it, and the reference latitude.
@Suite struct RadiusMetersTests {
    static let points = Fixtures.policeStations

    @Test("a tile's intensities are the brute-force sum with R(z) = metres / g(φ₀, z, s)")
    func againstBruteForce() throws {
        var settings = HeatmapSettings()
        settings.radiusMeters = 8000
        settings.radiusLatitude = -37.8
        let layer = HeatmapTileLayer(weightedData: Self.points, settings: settings)
        for (zoom, x, y, scale) in [(6, 57, 39, 1), (7, 115, 78, 2), (9, 462, 314, 1), (4, 14, 9, 3)] {
            let reach = try GroundRadius(meters: 8000, latitude: -37.8).pixels(zoom: zoom, scale: scale)
            #expect(try layer.kernelRadius(zoom: zoom, scale: scale) == reach)
            let grid = try #require(try layer.intensity(x: x, y: y, zoom: zoom, scale: scale))
            let space = try PixelSpace(zoom: zoom, scale: scale)
            let expected = ReferenceRenderer.intensity(
                of: Self.points, in: PixelRect(tileX: x, y: y, in: space), space: space, radius: reach)
            var worst = 0.0
            for i in 0..<expected.count { worst = max(worst, abs(Double(grid.values[i]) - expected[i])) }
            #expect(worst <= 1e-4 * max(1, expected.max() ?? 0), "z\(zoom) s\(scale) R \(reach): \(worst)")
        }
    }

    @Test("M(z) is the exact maximum with that zoom's reach")
    func normalization() throws {
        var settings = HeatmapSettings()
        settings.radiusMeters = 30_000
        let layer = HeatmapTileLayer(weightedData: Self.points, settings: settings)
        for zoom in [3, 5, 7] {
            let reach = try layer.kernelRadius(zoom: zoom)
            let expected = ReferenceRenderer.maximum(
                of: Self.points, space: try PixelSpace(zoom: zoom, scale: 1), radius: reach)
            let m = try layer.normalization(zoom: zoom)
            #expect(abs(m - expected) <= 1e-4 * expected, "z\(zoom): \(m) against \(expected)")
        }
    }

    @Test("the default reference latitude is the middle of the data's latitudes")
    func centreLatitude() throws {
        var settings = HeatmapSettings()
        settings.radiusMeters = 5000
        let layer = HeatmapTileLayer(weightedData: Self.points, settings: settings)
        let index = try PointIndex(points: Self.points)
        let range = try #require(index.latitudeRange)
        let south = Self.points.map(\.coordinate.latitude).min() ?? 0
        let north = Self.points.map(\.coordinate.latitude).max() ?? 0
        #expect(abs(range.lowerBound - south) < 1e-6 && abs(range.upperBound - north) < 1e-6)
        for zoom in [5, 10, 14] {
            let expected = try GroundRadius(meters: 5000, latitude: (range.lowerBound + range.upperBound) / 2)
                .pixels(zoom: zoom, scale: 2)
            #expect(try layer.kernelRadius(zoom: zoom, scale: 2) == expected)
        }
        // A stated latitude wins; the radius in points is unchanged without metres.
        settings.radiusLatitude = 0
        #expect(try layer.kernelRadius(zoom: 10, settings: settings) < (try layer.kernelRadius(zoom: 10)))
        #expect(try HeatmapTileLayer(weightedData: Self.points).kernelRadius(zoom: 10, scale: 3) == 60)
    }

    @Test("tiles drawn with metres are seamless: 2 × 2 tiles equal one render of their area")
    func seamless() throws {
        var settings = HeatmapSettings()
        settings.radiusMeters = 3000
        let layer = HeatmapTileLayer(weightedData: Self.points, settings: settings)
        let index = try PointIndex(points: Self.points)
        for (zoom, x, y) in [(8, 230, 157), (10, 923, 628)] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let kernel = GaussianKernel(radius: try layer.kernelRadius(zoom: zoom))
            let whole = index.intensity(
                in: PixelRect(x: x * 256, y: y * 256, width: 512, height: 512), space: space, kernel: kernel)
            var differing = 0
            for row in 0..<2 {
                for column in 0..<2 {
                    guard let tile = try layer.intensity(x: x + column, y: y + row, zoom: zoom) else { continue }
                    for j in 0..<256 {
                        for i in 0..<256 where tile[i, j] != whole[column * 256 + i, row * 256 + j] { differing += 1 }
                    }
                }
            }
            #expect(differing == 0, "z\(zoom)")
            #expect(whole.maximum > 0)
        }
    }

    @Test("the tile cache and M(z) are keyed by the radius: changing the metres changes the tile")
    func cacheKeys() throws {
        let layer = HeatmapTileLayer(weightedData: Self.points)
        let plain = try layer.tileFor(x: 115, y: 78, zoom: 7)
        var settings = HeatmapSettings()
        settings.radiusMeters = 2000
        let small = try layer.tileFor(x: 115, y: 78, zoom: 7, settings: settings)
        settings.radiusMeters = 9000
        let large = try layer.tileFor(x: 115, y: 78, zoom: 7, settings: settings)
        #expect(Set([plain, small, large]).count == 3)
        #expect(try layer.tileFor(x: 115, y: 78, zoom: 7, settings: settings) == large)
        layer.radiusMeters = 9000
        #expect(try layer.tileFor(x: 115, y: 78, zoom: 7) == large)
        // Metres giving R = 20 px share M(z) with radius 20 points: the same tile.
        let twenty = try GroundRadius(meters: 1, latitude: 0).metersPerPixel(zoom: 7, scale: 1) * 20
        var same = HeatmapSettings()
        same.radiusMeters = twenty
        same.radiusLatitude = 0
        #expect(try layer.tileFor(x: 115, y: 78, zoom: 7, settings: same) == plain)
    }

    @Test("bad metres are errors, never traps; a source without points needs a latitude")
    func errors() throws {
        let layer = HeatmapTileLayer(weightedData: Self.points)
        for meters in [0, -1, Double.nan, .infinity] {
            layer.radiusMeters = meters
            #expect(throws: HeatmapError.self) { _ = try layer.tileFor(x: 115, y: 78, zoom: 7) }
        }
        layer.radiusMeters = 1e300
        #expect(try layer.kernelRadius(zoom: 22, scale: 3) == 384)
        layer.radiusMeters = 500
        layer.radiusLatitude = 95
        #expect(throws: HeatmapError.self) { _ = try layer.tileFor(x: 115, y: 78, zoom: 7) }
        let index = try PointIndex(points: Self.points)
        var settings = HeatmapSettings()
        settings.radiusMeters = 5000
        let external = HeatmapTileLayer(source: index, settings: settings)
        #expect {
            _ = try external.tileFor(x: 115, y: 78, zoom: 7)
        } throws: { error in
            (error as? HeatmapError)?.description.contains("--radius-latitude") ?? false
        }
        settings.radiusLatitude = -37.8
        #expect(try external.tileFor(x: 115, y: 78, zoom: 7, settings: settings).png != nil)
    }
}
