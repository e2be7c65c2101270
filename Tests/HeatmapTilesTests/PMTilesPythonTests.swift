import Foundation
import HeatmapKit
import HeatmapTiles
import Testing

/// The Python `pmtiles` package (protomaps' reference reader), in a virtual environment.
enum PMTilesPython {
    /// The venv's interpreter with `pmtiles` importable: `HEATMAP_PMTILES_PYTHON` if set (CI
    /// makes the venv), else a venv in the temporary folder, made once with pip; `nil` when pip
    /// cannot reach its index.
    static let interpreter: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["HEATMAP_PMTILES_PYTHON"] { return URL(fileURLWithPath: given) }
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-pmtiles-venv")
        let python = venv.appendingPathComponent("bin/python")
        if works(python) { return python }
        guard let system = Fixtures.program("python3") else { return nil }
        _ = try? Fixtures.run(system, ["-m", "venv", venv.path])
        let pip = venv.appendingPathComponent("bin/pip")
        _ = try? Fixtures.run(pip, ["install", "--quiet", "--timeout", "20", "--retries", "1", "pmtiles"])
        return works(python) ? python : nil
    }()

    static func works(_ python: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        return (try? Fixtures.run(python, ["-c", "import pmtiles.reader"]).status) == 0
    }

    /// Reads every tile with `all_tiles` and each expected tile with `Reader.get`, printing
    /// the header, then `z x y base64` lines.
    static let script = """
        import base64, sys
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(sys.argv[1], "rb") as f:
            reader = Reader(MmapSource(f))
            h = reader.header()
            m = reader.metadata()
            print(h["clustered"], h["tile_type"].name, h["internal_compression"].name, h["min_zoom"], h["max_zoom"],
                  h["addressed_tiles_count"], m["name"], m["heatmap_options"]["radius"])
            for (z, x, y), data in all_tiles(reader.get_bytes):
                again = reader.get(z, x, y)
                assert again == data, (z, x, y)
                print(z, x, y, base64.b64encode(data).decode())
        """
}

@Suite struct PMTilesPythonTests {
    @Test(
        "the PMTiles file reads tile for tile with the pmtiles Python package",
        .enabled(
            if: PMTilesPython.interpreter != nil
                || ProcessInfo.processInfo.environment["HEATMAP_PMTILES_PYTHON"] != nil,
            "needs the pmtiles Python package (pip install pmtiles in a venv; HEATMAP_PMTILES_PYTHON names its python)"
        ))
    func reference() throws {
        let python = try #require(PMTilesPython.interpreter)
        let output = Fixtures.temporaryPath("heat.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Fixtures.heatmap([
            "render", Fixtures.path("police_stations.json"), "--zoom", "0-8", "--output", output, "--quiet",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let expected = try RenderCommandTests.expected(zooms: 0...8, scale: 1)
        let read = try Fixtures.run(python, ["-c", PMTilesPython.script, output])
        #expect(read.status == 0, "\(read.standardError)")
        var lines = read.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "True PNG GZIP 0 8 \(expected.count) police_stations 20")
        lines.removeFirst()
        var tiles: [TileCoordinate: [UInt8]] = [:]
        for line in lines {
            let parts = line.split(separator: " ")
            guard parts.count == 4, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]),
                let data = Data(base64Encoded: String(parts[3]))
            else {
                Issue.record("unexpected line \(line)")
                continue
            }
            tiles[TileCoordinate(zoom: z, x: x, y: y)] = [UInt8](data)
        }
        #expect(tiles == expected)
    }
}
