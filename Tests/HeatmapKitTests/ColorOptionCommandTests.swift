import Foundation
import HeatmapKit
import Testing

/// `heatmap tile` and `heatmap image` with the colour options, run as a user runs them.
@Suite struct ColorOptionCommandTests {
    let runner = TileCommandTests()

    @Test("tile --gradient --color-scale --min/max-zoom-intensity writes the library's PNG (160 entries unless given)")
    func tileMatchesLibrary() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = runner.temporaryPath("tile.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let cases: [([String], HeatmapSettings)] = [
            (
                ["--gradient", "magma", "--color-scale", "sqrt"],
                HeatmapSettings(
                    gradient: Gradient.preset(named: "magma", colorMapSize: Gradient.paletteColorMapSize) ?? .default,
                    colorScale: .sqrt)
            ),
            (
                [
                    "--gradient", "cividis", "--color-map-size", "300", "--color-scale", "log", "--min-zoom-intensity",
                    "9",
                ],
                HeatmapSettings(
                    gradient: Gradient.preset(named: "cividis", colorMapSize: 300) ?? .default, colorScale: .log,
                    minimumZoomIntensity: 9)
            ),
            (
                ["--min-zoom-intensity", "5", "--max-zoom-intensity", "5"],
                HeatmapSettings(gradient: .paletteDefault, minimumZoomIntensity: 5, maximumZoomIntensity: 5)
            ),
        ]
        for (options, settings) in cases {
            let result = try runner.run(
                ["tile", Fixtures.path("police_stations.json"), "7/115/78", "--output", output] + options)
            #expect(result.status == 0, "\(options): \(result.standardError)")
            let bytes = try #require(FileManager.default.contents(atPath: output))
            let expected = try HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: settings)
                .tileFor(x: 115, y: 78, zoom: 7)
            #expect([UInt8](bytes) == expected.png, "\(options)")
        }
    }

    @Test(
        "bad colour options are usage errors (exit 64) that name the option",
        arguments: [
            (["--color-scale", "cubic"], #"color-scale "cubic""#), (["--gradient", "rainbow"], "preset"),
            (["--color-map-size", "1"], "color-map-size"), (["--min-zoom-intensity", "23"], "a zoom in 0...22"),
            (["--min-zoom-intensity", "8", "--max-zoom-intensity", "3"], "above"),
        ])
    func badOptions(options: [String], words: String) throws {
        for command in [
            ["tile", Fixtures.path("police_stations.json"), "7/115/78"],
            [
                "image", Fixtures.path("police_stations.json"), "--center", "-37.7,145", "--zoom", "7", "--size",
                "64x64",
            ],
        ] {
            let result = try runner.run(command + options)
            #expect(result.status == 64, "\(command[0]) \(options)")
            #expect(result.standardError.contains(words), "\(result.standardError)")
        }
    }
}
