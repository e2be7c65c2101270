import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

@Suite struct HeatmapTileLayerTests {
    /// Melbourne, zoom 7: the tile README shows.
    static let melbourne = (x: 115, y: 78, zoom: 7)

    func layer() -> HeatmapTileLayer { HeatmapTileLayer(weightedData: Fixtures.policeStations) }

    @Test("Google's defaults")
    func defaults() {
        let layer = HeatmapTileLayer()
        #expect(layer.radius == 20)
        #expect(layer.opacity == 0.7)
        #expect(layer.gradient == .default)
        #expect(layer.tileSize == 256)
        #expect(layer.maximumIntensity == nil)
        #expect(layer.weightedData.isEmpty)
    }

    @Test("a tile with data is a PNG of 256, 512 or 768 pixels that libpng decodes", arguments: [1, 2, 3])
    func imageSizes(scale: Int) throws {
        try #require(Fixtures.policeStations.count == 345)
        let m = Self.melbourne
        let tile = try layer().tileFor(x: m.x, y: m.y, zoom: m.zoom, scale: scale)
        let image = try #require(tile.decoded)
        #expect(image.width == 256 * scale && image.height == 256 * scale)
        #expect(stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] > 0 })
    }

    @Test("no tile where nothing is within reach, and for no data")
    func noTile() throws {
        #expect(try layer().tileFor(x: 0, y: 0, zoom: 7) == .noTile)
        #expect(try HeatmapTileLayer().tileFor(x: 0, y: 0, zoom: 0) == .noTile)
        let zeroWeight = HeatmapTileLayer(weightedData: [
            WeightedLatLng(coordinate: Coordinate(latitude: 1, longitude: 1), intensity: 0)
        ])
        #expect(try zeroWeight.tileFor(x: 0, y: 0, zoom: 0) == .noTile)
    }

    @Test("every pixel's colour is the colour map entry of I / M(z)")
    func colourFollowsDefinition() throws {
        let layer = layer()
        let m = Self.melbourne
        let image = try #require(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom).decoded)
        let grid = try #require(try layer.intensity(x: m.x, y: m.y, zoom: m.zoom))
        let maximum = try layer.normalization(zoom: m.zoom)
        let map = ColorMap(gradient: .default, opacity: 0.7)
        #expect(maximum > 0)
        var mismatches = 0
        for i in 0..<grid.values.count {
            let v = Double(grid.values[i])
            let expected: [UInt8] =
                v == 0 ? [0, 0, 0, 0] : Array(map.entries[(min(999, Int(v / maximum * 999)) * 4)...].prefix(4))
            if Array(image.pixels[(4 * i)..<(4 * i + 4)]) != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test("invalid settings are errors that say what, on the next tile")
    func invalidSettings() {
        let layer = layer()
        layer.radius = 0
        #expect(throws: HeatmapError.invalidRadius(0)) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        layer.radius = 51
        #expect(throws: HeatmapError.invalidRadius(51)) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        layer.radius = 20
        layer.opacity = 2
        #expect(throws: HeatmapError.invalidOpacity(2)) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        layer.opacity = .nan
        #expect(throws: HeatmapError.self) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        layer.opacity = 0.7
        layer.maximumIntensity = -1
        #expect(throws: HeatmapError.invalidMaximumIntensity(-1)) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        #expect(HeatmapError.invalidRadius(0).description == "radius 0 is outside 10...50 points")
    }

    @Test(
        "bad data name the point",
        arguments: [
            (Coordinate(latitude: .nan, longitude: 0), 1.0, "latitude nan is outside -90...90"),
            (Coordinate(latitude: 91, longitude: 0), 1.0, "latitude 91.0 is outside -90...90"),
            (Coordinate(latitude: 0, longitude: .infinity), 1.0, "longitude inf is not a finite number"),
            (Coordinate(latitude: 0, longitude: 0), -1.0, "intensity -1.0 is not a finite number ≥ 0"),
            (Coordinate(latitude: 0, longitude: 0), Double.nan, "intensity nan is not a finite number ≥ 0"),
        ])
    func invalidData(coordinate: Coordinate, intensity: Double, reason: String) {
        let good = WeightedLatLng(coordinate: Coordinate(latitude: 0, longitude: 0))
        let layer = HeatmapTileLayer(weightedData: [
            good, good, WeightedLatLng(coordinate: coordinate, intensity: intensity),
        ])
        #expect(throws: HeatmapError.invalidPoint(index: 2, reason: reason)) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        #expect(throws: HeatmapError.invalidPoint(index: 2, reason: reason)) { try layer.prepare() }
    }

    @Test("tiles outside the grid, zooms beyond 22 and odd scales are errors")
    func invalidTiles() {
        let layer = layer()
        #expect(throws: HeatmapError.tileOutOfRange(x: 2, y: 0, zoom: 1)) { try layer.tileFor(x: 2, y: 0, zoom: 1) }
        #expect(throws: HeatmapError.tileOutOfRange(x: 0, y: -1, zoom: 3)) { try layer.tileFor(x: 0, y: -1, zoom: 3) }
        #expect(throws: HeatmapError.unsupportedZoom(23)) { try layer.tileFor(x: 0, y: 0, zoom: 23) }
        #expect(throws: HeatmapError.unsupportedZoom(-1)) { try layer.tileFor(x: 0, y: 0, zoom: -1) }
        #expect(throws: HeatmapError.unsupportedScale(4)) { try layer.tileFor(x: 0, y: 0, zoom: 0, scale: 4) }
        #expect(throws: HeatmapError.tileOutOfRange(x: Int.max, y: 0, zoom: 22)) {
            try layer.tileFor(x: .max, y: 0, zoom: 22)
        }
        #expect(HeatmapError.tileOutOfRange(x: 2, y: 0, zoom: 1).description.contains("0...1"))
    }

    @Test("every change takes effect on the next tile")
    func changesTakeEffect() throws {
        let layer = layer()
        let m = Self.melbourne
        let first = try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom)
        #expect(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom) == first)
        layer.radius = 40
        let wider = try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom)
        #expect(wider != first)
        layer.opacity = 0.3
        #expect(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom) != wider)
        layer.gradient = try Gradient(colors: [RGBAColor(red: 0, green: 0, blue: 255)], startPoints: [0.5])
        let blue = try #require(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom).decoded)
        #expect(stride(from: 0, to: blue.pixels.count, by: 4).allSatisfy { blue.pixels[$0] == 0 })
        layer.weightedData = Fixtures.cluster(latitude: 10, longitude: 10)
        #expect(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom) == .noTile)
        layer.maximumIntensity = 1000
        #expect(try layer.normalization(zoom: 3) == 1000)
    }

    @Test("clearTileCache drops cached tiles and the next tile is the same")
    func clearCache() throws {
        let layer = layer()
        let m = Self.melbourne
        let tile = try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom)
        #expect(layer.cache.count == 1)
        layer.clearTileCache()
        #expect(layer.cache.count == 0)
        #expect(try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom) == tile)
    }

    @Test("the asynchronous request answers as the synchronous one")
    func asynchronous() async throws {
        let layer = layer()
        let m = Self.melbourne
        let tile = try await layer.tile(x: m.x, y: m.y, zoom: m.zoom, scale: 2)
        #expect(tile.png != nil)
        #expect(tile == (try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom, scale: 2)))
        await #expect(throws: HeatmapError.unsupportedZoom(30)) { try await layer.tile(x: 0, y: 0, zoom: 30) }
    }

    @Test("tileIfReady answers 'not available yet' until the index is built, then the tile")
    func notAvailableYet() throws {
        let layer = layer()
        let m = Self.melbourne
        #expect(try layer.tileIfReady(x: m.x, y: m.y, zoom: m.zoom) == .notAvailableYet)
        var answer = TileResult.notAvailableYet
        for _ in 0..<1000 where answer == .notAvailableYet {
            usleep(10_000)
            answer = try layer.tileIfReady(x: m.x, y: m.y, zoom: m.zoom)
        }
        #expect(answer == (try layer.tileFor(x: m.x, y: m.y, zoom: m.zoom)))
        #expect(try layer.tileIfReady(x: 0, y: 0, zoom: 7) == .noTile)
        // Indexed, but M(z) of a new zoom is not known yet: that is computed in the background too.
        #expect(try layer.tileIfReady(x: 57, y: 39, zoom: 6) == .notAvailableYet)
        answer = .notAvailableYet
        for _ in 0..<1000 where answer == .notAvailableYet {
            usleep(10_000)
            answer = try layer.tileIfReady(x: 57, y: 39, zoom: 6)
        }
        #expect(answer == (try layer.tileFor(x: 57, y: 39, zoom: 6)))
        #expect(throws: HeatmapError.unsupportedZoom(23)) { try layer.tileIfReady(x: 0, y: 0, zoom: 23) }
    }
}

@Suite struct PrebuiltIndexTests {
    @Test("a layer over a prebuilt index draws what a layer over the points draws")
    func sameTiles() throws {
        var builder = PointIndex.Builder()
        for point in Fixtures.policeStations { try builder.append(point) }
        let fromIndex = HeatmapTileLayer(index: builder.build())
        let fromPoints = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        #expect(try fromIndex.tileFor(x: 57, y: 39, zoom: 6) == fromPoints.tileFor(x: 57, y: 39, zoom: 6))
        #expect(fromIndex.weightedData.count == 345)
        let first = try #require(fromIndex.weightedData.first)
        #expect(Fixtures.policeStations.contains { abs($0.coordinate.latitude - first.coordinate.latitude) < 1e-6 })
        fromIndex.replaceData(with: try PointIndex(points: Fixtures.cluster(latitude: 0, longitude: 0)))
        #expect(try fromIndex.tileFor(x: 57, y: 39, zoom: 6) == .noTile)
    }

    @Test("the builder names the point at fault by its position")
    func builderErrors() throws {
        var builder = PointIndex.Builder()
        try builder.append(latitude: 1, longitude: 2)
        #expect(throws: HeatmapError.invalidPoint(index: 1, reason: "latitude 95.0 is outside -90...90")) {
            try builder.append(latitude: 95, longitude: 2)
        }
        #expect(builder.count == 1)
    }
}

@Suite struct SettingsOverrideTests {
    @Test("settings for one request draw as a layer with those settings, and leave the layer's alone")
    func override() async throws {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        let wide = HeatmapSettings(radius: 45, opacity: 0.4)
        let reference = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: wide)
        let own = try layer.tileFor(x: 57, y: 39, zoom: 6)
        #expect(try layer.tileFor(x: 57, y: 39, zoom: 6, settings: wide) == reference.tileFor(x: 57, y: 39, zoom: 6))
        #expect(try await layer.tile(x: 57, y: 39, zoom: 6, settings: wide) == reference.tileFor(x: 57, y: 39, zoom: 6))
        #expect(try layer.tileFor(x: 57, y: 39, zoom: 6) == own)
        #expect(layer.cache.count == 2)
        #expect(throws: HeatmapError.invalidRadius(5)) {
            try layer.tileFor(x: 57, y: 39, zoom: 6, settings: HeatmapSettings(radius: 5))
        }
    }
}
