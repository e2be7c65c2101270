import Foundation
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// The tile set's name `render` stores: `--name`, else DATA's base name, else (points from
/// standard input) the output's base name, as GDAL's MBTiles driver does; never `-`.
@Suite struct RenderNameTests {
    @Test("render - names the tile set after the output (MBTiles, PMTiles, folder); --name still wins")
    func standardInputName() throws {
        let points = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("police_stations.json")))
        for file in ["heat.mbtiles", "heat.pmtiles", "heat"] {
            let output = Fixtures.temporaryPath(file)
            defer { try? FileManager.default.removeItem(atPath: output) }
            let base = URL(fileURLWithPath: output).lastPathComponent
            let expected = file == "heat" ? base : String(base.dropLast(".mbtiles".count))
            let run = try TestProgram.heatmap(["render", "-", "--zoom", "0-3", "--output", output], input: points)
            #expect(run.status == 0, "\(run.standardError)")
            let name = try TileArchive.open(output).metadata.name
            #expect(name == expected, "\(file): \(name)")
            #expect(name != "-")
            try FileManager.default.removeItem(atPath: output)
            let named = try TestProgram.heatmap(
                ["render", "-", "--zoom", "0-3", "--output", output, "--name", "Police"], input: points)
            #expect(named.status == 0, "\(named.standardError)")
            #expect(try TileArchive.open(output).metadata.name == "Police")
        }
    }

    @Test("the default name is still DATA's base name for a file")
    func defaults() throws {
        let points = Fixtures.path("police_stations.json")
        let output = Fixtures.temporaryPath("x.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try TestProgram.heatmap(["render", points, "--zoom", "0-2", "--output", output, "--quiet"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try TileArchive.open(output).metadata.name == "police_stations")
    }
}
