import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

/// `aggregate = .mean` through the layer, the readers' value column and the command.
@Suite struct MeanLayerTests {
    /// The police stations with a value each: their longitude's distance east of 141°.
    static let values: ValueIndex? = try? ValueIndex(
        points: Fixtures.policeStations, values: Fixtures.policeStations.map { $0.coordinate.longitude - 141 })

    @Test("a mean tile colours each pixel by its mean's place in the values' range")
    func colours() throws {
        let values = try #require(Self.values)
        var settings = HeatmapSettings(gradient: .preset(named: "viridis") ?? .default, opacity: 1)
        settings.aggregate = .mean
        let layer = HeatmapTileLayer(values: values, settings: settings)
        let image = try #require(try layer.tileFor(x: 57, y: 39, zoom: 6).decoded)
        let grid = try #require(try layer.mean(x: 57, y: 39, zoom: 6))
        let range = try #require(try layer.meanRange())
        #expect(range == values.lowest...values.highest)
        let map = ColorMap(gradient: settings.gradient, opacity: 1)
        let expected = map.colorize(grid.positions(in: range), maximum: 1)
        #expect(image.pixels == expected.pixels)
        // The sum is still there, unchanged, with the same data.
        let sum = HeatmapTileLayer(index: values.density)
        #expect(
            try layer.tileFor(x: 57, y: 39, zoom: 6, settings: .default) == (try sum.tileFor(x: 57, y: 39, zoom: 6)))
    }

    @Test("a layer of the mean refuses live points, and keeps its values and tiles")
    func refusesLivePoints() throws {
        let values = try #require(Self.values)
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        let layer = HeatmapTileLayer(values: values, settings: settings)
        let before = try layer.tileFor(x: 57, y: 39, zoom: 6)
        let point = WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 145), intensity: 1)
        for removing in [false, true] {
            #expect(throws: HeatmapError.self) { _ = removing ? try layer.remove([point]) : try layer.add([point]) }
        }
        #expect(try layer.meanRange() == values.lowest...values.highest)
        #expect(try layer.tileFor(x: 57, y: 39, zoom: 6) == before)
        #expect(layer.pointCount == values.density.count)
    }

    @Test("the minimum density clears pixels, and a tile with none left is no tile")
    func minimumDensity() throws {
        let values = try #require(Self.values)
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        let layer = HeatmapTileLayer(values: values, settings: settings)
        let all = try #require(try layer.mean(x: 57, y: 39, zoom: 6))
        settings.minimumDensity = 3
        let some = try #require(try layer.mean(x: 57, y: 39, zoom: 6, settings: settings))
        let density = all.density
        var cleared = 0
        for i in 0..<some.means.count {
            #expect(some.means[i].isNaN == !(density.values[i] >= 3), "pixel \(i)")
            if some.means[i].isNaN && !all.means[i].isNaN { cleared += 1 }
        }
        #expect(cleared > 0)
        settings.minimumDensity = 1e9
        #expect(try layer.tileFor(x: 57, y: 39, zoom: 6, settings: settings) == .noTile)
    }

    @Test("the mean without values is an error that says how to give them")
    func withoutValues() throws {
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: settings)
        #expect {
            _ = try layer.tileFor(x: 57, y: 39, zoom: 6)
        } throws: { error in
            (error as? HeatmapError)?.description.contains("--value") ?? false
        }
        settings.minimumDensity = -1
        #expect(throws: HeatmapError.self) { _ = try layer.tileFor(x: 57, y: 39, zoom: 6, settings: settings) }
    }

    static var priced: PointReadOptions {
        var options = PointReadOptions()
        options.valueColumn = "price"
        return options
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = TestScratch.folder.appendingPathComponent(
            "heatmap-mean-\(UUID().uuidString)-\(name)"
        )
        .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the readers read the value column of CSV, JSON and GeoJSON into the same index")
    func readers() throws {
        let csv = try write("lat,lng,price\n-37.8,144.9,100\n-37.81,144.95,300\n", "p.csv")
        let json = try write(
            #"[{"lat": -37.8, "lng": 144.9, "price": 100}, {"lat": -37.81, "lng": 144.95, "price": "300"}]"#, "p.json")
        let geojson = try write(
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [144.9, -37.8]}, "properties": {"price": 100}}, {"type": "Feature", "geometry": {"type": "Point", "coordinates": [144.95, -37.81]}, "properties": {"price": 300}}]}"#,
            "p.geojson")
        defer { for path in [csv, json, geojson] { try? FileManager.default.removeItem(atPath: path) } }
        var tiles: [TileResult] = []
        for path in [csv, json, geojson] {
            let file = try PointFileReader.read(path: path, options: Self.priced)
            let values = try #require(file.values, "\(path)")
            #expect(values.lowest == 100 && values.highest == 300)
            var settings = HeatmapSettings()
            settings.aggregate = .mean
            tiles.append(try HeatmapTileLayer(values: values, settings: settings).tileFor(x: 924, y: 628, zoom: 10))
        }
        #expect(Set(tiles).count == 1)
        #expect(tiles[0].png != nil)
    }

    @Test("a missing or non-numeric value is an error naming the file and line; --skip-invalid skips it")
    func readerErrors() throws {
        let cases: [(String, String, String)] = [
            ("lat,lng,price\n-37.8,144.9,abc\n", "p.csv", #"p.csv:2: value "abc" is not a number"#),
            ("lat,lng,price\n-37.8,144.9,\n", "p.csv", "p.csv:2: value is empty"),
            ("lat,lng,price\n-37.8,144.9,nan\n", "p.csv", "p.csv:2: value"),
            ("lat,lng\n-37.8,144.9\n", "p.csv", #"no value column "price""#),
            ("[{\"lat\": 1, \"lng\": 2}]", "p.json", #"has no value field "price""#),
            ("[{\"lat\": 1, \"lng\": 2, \"price\": null}]", "p.json", "value (\"price\") is null"),
        ]
        for (text, name, words) in cases {
            let path = try write(text, name)
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect {
                _ = try PointFileReader.read(path: path, options: Self.priced)
            } throws: { error in
                let message = String(describing: error).replacingOccurrences(of: path, with: name)
                return message.contains(words)
                    || {
                        print(message)
                        return false
                    }()
            }
        }
        let path = try write("lat,lng,price\n-37.8,144.9,abc\n-37.8,144.9,5\n", "p.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = PointReadOptions(skipInvalid: true)
        options.valueColumn = "price"
        let file = try PointFileReader.read(path: path, options: options)
        #expect(file.report.skippedCount == 1)
        #expect(file.values?.density.count == 1)
    }
}
