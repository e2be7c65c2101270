import Foundation
import HeatmapKit
import Testing

/// `--radius-meters`, `--aggregate mean`, `--value` and friends through `heatmap tile` and `render`.
@Suite struct KernelCommandTests {
    let commands = TileCommandTests()

    @Test("tile --radius-meters writes the library's tile, and --format intensity its grid")
    func tileMeters() throws {
        let output = commands.temporaryPath("tile.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try commands.run([
            "tile", Fixtures.path("police_stations.json"), "7/115/78@2x", "--radius-meters", "6000", "--output", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        var settings = HeatmapSettings.paletteDefault  // The command's 160-entry colour map.
        settings.radiusMeters = 6000
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: settings)
        let expected = try layer.tileFor(x: 115, y: 78, zoom: 7, scale: 2).png
        #expect(FileManager.default.contents(atPath: output).map { [UInt8]($0) } == expected)
    }

    @Test("tile --aggregate mean --value COL draws the mean; errors name the option or the line")
    func tileMean() throws {
        let csv = commands.temporaryPath("priced.csv")
        let output = commands.temporaryPath("mean.png")
        defer { for path in [csv, output] { try? FileManager.default.removeItem(atPath: path) } }
        var text = "lat,lng,price\n"
        for p in Fixtures.policeStations {
            text += "\(p.coordinate.latitude),\(p.coordinate.longitude),\(p.coordinate.longitude * 10)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
        let ok = try commands.run([
            "tile", csv, "6/57/39", "--aggregate", "mean", "--value", "price", "--min-density", "0.5",
            "--gradient", "viridis", "--output", output,
        ])
        #expect(ok.status == 0, "\(ok.standardError)")
        var options = PointReadOptions()
        options.valueColumn = "price"
        let values = try #require(try PointFileReader.read(path: csv, options: options).values)
        let viridis = Gradient.preset(named: "viridis", colorMapSize: Gradient.paletteColorMapSize)
        var settings = HeatmapSettings(gradient: viridis ?? .default)
        settings.aggregate = .mean
        settings.minimumDensity = 0.5
        let expected = try HeatmapTileLayer(values: values, settings: settings).tileFor(x: 57, y: 39, zoom: 6).png
        #expect(FileManager.default.contents(atPath: output).map { [UInt8]($0) } == expected)
        for (arguments, status, words) in [
            (["--aggregate", "mean"], Int32(64), "needs --value"),
            (["--aggregate", "median", "--value", "price"], 64, "sum or mean"),
            (["--aggregate", "mean", "--value", "cost"], 1, "no value column \"cost\""),
            (["--radius-meters", "-3"], 64, "metres"),
            (["--value-range", "9,1", "--aggregate", "mean", "--value", "price"], 64, "value-range"),
        ] {
            let result = try commands.run(["tile", csv, "6/57/39", "--output", output] + arguments)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(words), "\(arguments): \(result.standardError)")
        }
        let postgres = try commands.run([
            "tile", "--postgres", "postgresql://127.0.0.1:1/none", "--table", "t", "6/57/39", "--aggregate", "mean",
            "--output", output,
        ])
        #expect(postgres.status == 64)
        #expect(postgres.standardError.contains("needs --value COL"), "\(postgres.standardError)")
    }

    @Test("render --radius-meters stores every tile the library draws, none missed by the walk")
    func renderMeters() throws {
        let folder = commands.temporaryPath("tiles")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try commands.run([
            "render", Fixtures.path("police_stations.json"), "--zoom", "3-8", "--radius-meters", "15000",
            "--output", folder + "/", "--quiet",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        var settings = HeatmapSettings.paletteDefault
        settings.radiusMeters = 15000
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: settings)
        // Every tile around the data at zoom 8 with an image is stored, byte for byte.
        var stored = 0
        for x in 225...235 {
            for y in 150...162 {
                let path = "\(folder)/8/\(x)/\(y).png"
                let tile = try layer.tileFor(x: x, y: y, zoom: 8)
                let file = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
                #expect(file == tile.png, "8/\(x)/\(y)")
                if file != nil { stored += 1 }
            }
        }
        #expect(stored > 10)
    }
}
