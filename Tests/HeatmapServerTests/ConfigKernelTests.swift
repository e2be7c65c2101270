import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// The configuration file's keys of the radius in metres and the mean (`radiusMeters`,
/// `radiusLatitude`, `aggregate`, `value`, `minDensity`, `valueRange`), through `heatmap serve`.
@Suite struct ConfigKernelTests {
    /// A folder with `priced.csv` (the police stations, price = longitude − 141) and `serve.json`.
    func folder(_ config: String) throws -> (URL, [WeightedLatLng]) {
        let folder = TestScratch.folder.appendingPathComponent("config-kernel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let points = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
        var text = "lat,lng,price\n"
        for p in points {
            text += "\(p.coordinate.latitude),\(p.coordinate.longitude),\(p.coordinate.longitude - 141)\n"
        }
        try Data(text.utf8).write(to: folder.appendingPathComponent("priced.csv"))
        try Data(config.utf8).write(to: folder.appendingPathComponent("serve.json"))
        return (folder, points)
    }

    @Test("config keys draw the library's tiles: metres at a latitude, and the mean of a layer's value")
    func keysReachTheTiles() throws {
        let (folder, points) = try folder(
            """
            {"defaults": {"radiusMeters": 9000},
             "layers": [{"name": "meters", "file": "priced.csv", "radiusLatitude": -20},
                        {"name": "mean", "file": "priced.csv", "aggregate": "mean", "value": "price",
                         "minDensity": 0.25, "valueRange": [1, 7], "radiusMeters": 6000}]}
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(["--config", folder.appendingPathComponent("serve.json").path])
        defer { server.stop() }
        let client = try server.client()
        var meters = HeatmapSettings.paletteDefault  // The server's 255-entry colour map.
        meters.radiusMeters = 9000
        meters.radiusLatitude = -20
        let sum = try client.get("/meters/7/115/78@2x.png")
        #expect(sum.status == 200, "\(sum.text)")
        let expectedSum = try HeatmapTileLayer(weightedData: points, settings: meters).tileFor(
            x: 115, y: 78, zoom: 7, scale: 2)
        #expect(sum.body == expectedSum.png)
        var mean = HeatmapSettings.paletteDefault
        mean.radiusMeters = 6000
        mean.aggregate = .mean
        mean.minimumDensity = 0.25
        mean.valueRange = 1...7
        let values = try ValueIndex(points: points, values: points.map { $0.coordinate.longitude - 141 })
        let expectedMean = try HeatmapTileLayer(values: values, settings: mean).tileFor(x: 57, y: 39, zoom: 6)
        let drawn = try client.get("/mean/6/57/39.png")
        #expect(drawn.status == 200, "\(drawn.text)")
        #expect(drawn.body == expectedMean.png)
        // Not the density: the same layer drawn as a sum differs.
        mean.aggregate = .sum
        #expect(try HeatmapTileLayer(values: values, settings: mean).tileFor(x: 57, y: 39, zoom: 6).png != drawn.body)
    }

    @Test("a bad key is a usage error naming the file, the layer and the key")
    func badKeysAreNamed() throws {
        for (layer, words) in [
            (#""radiusMeters": -5"#, "radius-meters \"-5\""), (#""radiusLatitude": 95"#, "radius-latitude"),
            (#""aggregate": "median""#, "aggregate \"median\" is not sum or mean"),
            (#""minDensity": -1"#, "min-density"), (#""valueRange": [5, 1]"#, "value-range \"5,1\""),
            (#""valueRange": [1]"#, "value-range"),
            (#""aggregate": "mean""#, "needs \"value\""),
        ] {
            let (folder, _) = try folder(#"{"layers": [{"name": "p", "file": "priced.csv", \#(layer)}]}"#)
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("serve.json").path
            let result = try ServeCommandTests().fail(["--config", config, "--port", "0"])
            #expect(result.status == 64, "\(layer): \(result.error)")
            #expect(result.error.contains("\(config): layer 1 (p): "), "\(result.error)")
            #expect(result.error.contains(words), "\(layer): \(result.error)")
        }
        let (folder, _) = try folder(#"{"defaults": {"minDensity": -2}, "layers": []}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ServeCommandTests().fail(["--config", folder.appendingPathComponent("serve.json").path])
        #expect(result.status == 64 && result.error.contains("defaults: min-density"), "\(result.error)")
    }
}
