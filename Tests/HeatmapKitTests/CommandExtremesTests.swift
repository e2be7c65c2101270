import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap tile` and `heatmap info` with extreme numbers in flags, tile addresses and data:
/// every run exits 0, 1 or 64 (never a signal such as the SIGILL of a trap, 132).
@Suite struct CommandExtremesTests {
    static let numbers = [
        "4e-45", "1e-15", "1e-300", "1e-400", "0x1p-1074", "4.9e-324", "1e308", "1e309", "3.4028235e38", "0", "-0",
        "-1", "nan", "NaN", "inf", "-inf", "infinity", "0x", "1e", "+1", ".5", "5.", String(repeating: "9", count: 400),
        "0." + String(repeating: "0", count: 400) + "1", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "1_000",
    ]

    /// Runs the command (whose outputs are small); its status, standard output and error.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let run = try TestProgram.heatmap(arguments)
        #expect(run.reason == .exit, "\(arguments): \(run.standardError)")
        #expect([0, 1, 64].contains(run.status), "\(arguments): \(run.standardError)")
        return (run.status, run.standardOutput, run.standardError)
    }

    @Test("the issue's reproducer: --max-intensity 1e-15 writes the tile and exits 0")
    func reproducer() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = TestScratch.folder.appendingPathComponent("max-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try run([
            "tile", Fixtures.path("police_stations.json"), "6/57/39", "--max-intensity", "1e-15", "--output", output,
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.contents(atPath: output).map { !$0.isEmpty } == true)
    }

    @Test("tile: --max-intensity, --radius, --opacity and the address with any number")
    func tileFlags() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let data = Fixtures.path("police_stations.json")
        let output = TestScratch.folder.appendingPathComponent("flags-\(UUID().uuidString).png")
            .path
        defer { try? FileManager.default.removeItem(atPath: output) }
        for number in Self.numbers {
            for flag in ["--max-intensity", "--radius", "--opacity"] {
                _ = try run(["tile", data, "6/57/39@2x", flag, number, "--output", output])
            }
            _ = try run(["tile", data, "6/57/\(number)", "--output", output])
            _ = try run(["tile", data, "\(number)/0/0@3x", "--output", output, "--format", "intensity"])
        }
        for address in ["22/4194303/4194303", "6/64/0", "6/-1/0", "6/57/39@9x", "6/57/39@2x.png", "23/0/0", "//"] {
            _ = try run(["tile", data, address, "--output", output])
        }
    }

    @Test("info: --zoom, --radius and --scale with any number; data with extreme weights and longitudes")
    func infoFlags() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let data = Fixtures.path("police_stations.json")
        for number in Self.numbers.prefix(12) + ["22", "23", "0,22", "3,,6"] {
            for flag in ["--zoom", "--radius", "--scale"] { _ = try run(["info", data, flag, number]) }
        }
        let csv = TestScratch.folder.appendingPathComponent("extremes-\(UUID().uuidString).csv")
        // A file of its own, not /dev/null: a command that renamed over its output would replace the device.
        let png = csv.deletingPathExtension().appendingPathExtension("png")
        defer {
            try? FileManager.default.removeItem(at: csv)
            try? FileManager.default.removeItem(at: png)
        }
        for (latitude, longitude, weight) in [
            ("1", "2.9768627017671585e+34", "1"), ("90", "-1.7976931348623157e308", "3e37"), ("-90", "1e300", "1e38"),
            ("1", "2", "3.4028235e38"), ("1", "2", "1e-45"), ("1", "2", "4.9e-324"), ("85.1", "180", "0"),
        ] {
            let rows = "lat,lng,weight\n\(latitude),\(longitude),\(weight)\n\(latitude),\(longitude),\(weight)\n"
            try Data(rows.utf8).write(to: csv)
            let result = try run(["info", csv.path, "--zoom", "0,3,22", "--json"])
            #expect(!result.output.contains("inf") && !result.output.contains("nan"), "\(rows): \(result.output)")
            #expect(
                result.status == 0 || result.error.contains(csv.lastPathComponent + ":"), "\(rows): \(result.error)")
            _ = try run(["tile", csv.path, "0/0/0", "--output", png.path])
        }
    }
}
