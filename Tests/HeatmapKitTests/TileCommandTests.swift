import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// The `heatmap tile` command, run as a user runs it.
@Suite struct TileCommandTests {
    struct Run {
        var status: Int32
        var standardError: String
    }

    /// The built `heatmap` executable beside the test bundle.
    static var executable: URL { TestProgram.heatmap }

    func run(_ arguments: [String]) throws -> Run {
        let run = try TestProgram.heatmap(arguments)
        return Run(status: run.status, standardError: run.standardError)
    }

    func temporaryPath(_ name: String) -> String { TestProgram.temporaryPath("test", name) }

    @Test("writes a 512-pixel PNG for @2x")
    func png() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let output = temporaryPath("tile.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try run(["tile", Fixtures.path("police_stations.json"), "6/57/39@2x", "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try #require(FileManager.default.contents(atPath: output))
        let image = try PNGDecoder.decode([UInt8](bytes))
        #expect(image.width == 512 && image.height == 512)
    }

    @Test("--format intensity writes the raw Float32 grid that the library computes")
    func intensity() throws {
        let output = temporaryPath("tile.f32")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try run([
            "tile", Fixtures.path("police_stations.json"), "7/115/78", "--format", "intensity", "--radius", "30",
            "--output", output,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: output)))
        #expect(bytes.count == 256 * 256 * 4)
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        layer.radius = 30
        let grid = try #require(try layer.intensity(x: 115, y: 78, zoom: 7))
        let values = stride(from: 0, to: bytes.count, by: 4).map { i in
            Float(
                bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(
                    bytes[i + 3]) << 24)
        }
        #expect(values == grid.values)
    }

    @Test("an empty tile says 'no tile', writes nothing and succeeds")
    func noTile() throws {
        let output = temporaryPath("empty.png")
        let result = try run(["tile", Fixtures.path("police_stations.json"), "7/0/0", "--output", output])
        #expect(result.status == 0)
        #expect(result.standardError == "no tile\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(
        "mistakes are named",
        arguments: [
            (
                ["tile", "police_stations.json", "7/115/78", "--radius", "0"], Int32(64),
                #"radius "0" is not a whole number in 10...50"#
            ),
            (["tile", "police_stations.json", "7/115"], 64, "the tile must be Z/X/Y"),
            (["tile", "police_stations.json", "7/128/0"], 1, "tile 7/128/0 is outside the grid of zoom 7"),
            (["tile", "police_stations.json", "23/0/0"], 1, "zoom 23 is outside 0...22"),
            (["tile", "missing.json", "1/0/0"], 1, "missing.json: cannot be read"),
            (
                ["tile", "police_stations.json", "1/0/0", "--opacity", "x"], 64,
                #"opacity "x" is not a number in 0...1"#
            ),
            (["tile", "police_stations.json", "1/0/0", "--colour", "red"], 64, "unknown option --colour"),
            (["draw"], 64, "unknown command \"draw\""),
        ])
    func mistakes(arguments: [String], status: Int32, message: String) throws {
        let resolved = arguments.map { $0 == "police_stations.json" ? Fixtures.path($0) : $0 }
        let result = try run(resolved)
        #expect(result.status == status)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test("a malformed data file names the element and field")
    func badData() throws {
        let path = temporaryPath("bad.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"[{"lat": 1, "lng": 2}, {"lat": 91.5, "lng": 2}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let result = try run(["tile", path, "0/0/0", "--output", temporaryPath("x.png")])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(path):1:32: element 1: latitude \"91.5\" is out of range -90...90"))
    }
}
