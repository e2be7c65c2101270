import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// `heatmap image`, run as a user runs it, against the library's static image.
@Suite struct ImageCommandTests {
    /// Runs the built `heatmap` as `TileCommandTests` does.
    func run(_ arguments: [String]) throws -> TileCommandTests.Run { try TileCommandTests().run(arguments) }

    @Test("writes the library's static image: the heatmap alone, and over a file:// base at @2x")
    func image() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let zoom = 7
        var written: [(x: Int, y: Int)] = []
        for x in 113...117 { for y in 76...80 { written.append((x, y)) } }
        let template = try writeSyntheticBase(in: folder, zoom: zoom, tiles: written)
        let data = Fixtures.path("police_stations.json")
        let output = folder.path + "/map.png"
        let viewport = Viewport(
            center: Coordinate(latitude: -37.5, longitude: 144.9), zoom: zoom, width: 300, height: 200, scale: 2)
        let heat = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: .paletteDefault)
        heat.radius = 25

        var result = try run([
            "image", data, "--center", "-37.5,144.9", "--zoom", "7", "--size", "300x200", "--scale", "2", "--radius",
            "25", "--output", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        var written1 = try PNGDecoder.decode([UInt8](try #require(FileManager.default.contents(atPath: output))))
        #expect(written1 == (try await onThread { try heat.imageFor(viewport) }))

        result = try run([
            "image", data, "--center", "-37.5,144.9", "--zoom", "7", "--size", "300x200", "--scale", "2", "--radius",
            "25", "--base", template, "--output", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        written1 = try PNGDecoder.decode([UInt8](try #require(FileManager.default.contents(atPath: output))))
        let base = try URLTileLayer(template: template)
        let stack = TileStack([base, heat])
        #expect(written1 == (try await onThread { try stack.imageFor(viewport) }))
    }

    @Test(
        "mistakes are named",
        arguments: [
            (["image", "police_stations.json", "--zoom", "3", "--size", "10x10"], Int32(64), "image needs --center"),
            (
                ["image", "police_stations.json", "--center", "91,0", "--zoom", "3", "--size", "10x10"], 64,
                "latitude 91.0 is outside -90...90"
            ),
            (
                ["image", "police_stations.json", "--center", "0,0", "--zoom", "3", "--size", "10"], 64,
                "--size expects two numbers"
            ),
            (
                ["image", "police_stations.json", "--center", "0,0", "--zoom", "3", "--size", "10.5x10"], 64,
                "--size expects whole numbers"
            ),
            (
                ["image", "police_stations.json", "--center", "0,0", "--zoom", "3", "--size", "5000x10"], 64,
                "size 5000×10 is outside 1...4096"
            ),
            (
                ["image", "police_stations.json", "--center", "0,0", "--zoom", "3", "--size", "10x10", "--base", "x"],
                64,
                "URL template \"x\" needs {z}, {x} and {y}"
            ),
            (
                [
                    "image", "police_stations.json", "--center", "0,0", "--zoom", "3", "--size", "10x10", "--radius",
                    "5",
                ], 64,
                #"radius "5" is not a whole number in 10...50"#
            ),
        ])
    func mistakes(arguments: [String], status: Int32, message: String) throws {
        let resolved = arguments.map { $0 == "police_stations.json" ? Fixtures.path($0) : $0 }
        let result = try run(resolved)
        #expect(result.status == status)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
