import Foundation
import HeatmapKit
import HeatmapTiles
import Testing

/// Archives of points on both sides of the antimeridian: their bounds as MBTiles 1.3 and PMTiles
/// v3 readers (GDAL, `pmtiles verify`, MapLibre) take them.
@Suite struct RenderAntimeridianTests {
    /// Points at 179.5° and -179.5°, so the data's extent crosses 180°.
    static func data() throws -> String {
        let path = Fixtures.temporaryPath("antimeridian.csv")
        try "lat,lng\n0,179.5\n10,-179.5\n-5,179.9\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The four bounds of a PMTiles v3 header (bytes 102...117: min lon, min lat, max lon, max lat,
    /// Int32 little-endian, degrees × 10^7).
    static func pmtilesBounds(_ path: String) throws -> [Double] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count >= 127)
        return (0..<4).map { i in
            let at = 102 + 4 * i
            let bits =
                UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
                | UInt32(bytes[at + 3]) << 24
            return Double(Int32(bitPattern: bits)) / 10_000_000
        }
    }

    @Test("bounds across 180° are written as the whole width, west below east, the centre on the data")
    func wholeWidth() throws {
        let data = try Self.data()
        defer { try? FileManager.default.removeItem(atPath: data) }
        for name in ["anti.mbtiles", "anti.pmtiles", "anti"] {
            let output = Fixtures.temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try Fixtures.heatmap(["render", data, "--zoom", "2-4", "--output", output, "--quiet"])
            #expect(run.status == 0, "\(run.standardError)")
            let metadata = try TileArchive.open(output).metadata
            #expect(metadata.bounds.west == -180 && metadata.bounds.east == 180, "\(name): \(metadata.bounds)")
            #expect(metadata.bounds.south < 0 && metadata.bounds.north > 10, "\(name): \(metadata.bounds)")
            #expect(abs(metadata.center.longitude) > 179, "\(name): the centre stays on the data")
            if name.hasSuffix(".pmtiles") {
                let b = try Self.pmtilesBounds(output)
                #expect(b[0] == -180 && b[2] == 180 && b[1] < b[3], "\(b)")
            }
        }
    }

    @Test(
        "GDAL opens the MBTiles of bounds across 180° without a word on its bounds",
        .enabled(
            if: Fixtures.program("gdalinfo") != nil || ProcessInfo.processInfo.environment["CI_REQUIRE_GDAL"] != nil,
            "needs GDAL's gdalinfo (apt-get install gdal-bin)"))
    func gdalBounds() throws {
        let gdalinfo = try #require(Fixtures.program("gdalinfo"), "gdalinfo (apt gdal-bin) is needed")
        let data = try Self.data()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let output = Fixtures.temporaryPath("anti.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Fixtures.heatmap(["render", data, "--zoom", "2-4", "--output", output, "--quiet"])
        #expect(run.status == 0, "\(run.standardError)")
        let info = try Fixtures.run(gdalinfo, [output])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(!info.standardError.contains("Invalid value for 'bounds'"), "\(info.standardError)")
    }

    @Test("--bounds with W > E (across 180°) is written as the whole width too")
    func givenBounds() throws {
        let data = try Self.data()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let output = Fixtures.temporaryPath("given.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Fixtures.heatmap([
            "render", data, "--zoom", "3", "--output", output, "--bounds", "170,-20,-170,20", "--quiet",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let metadata = try TileArchive.open(output).metadata
        #expect(metadata.bounds.west == -180 && metadata.bounds.east == 180, "\(metadata.bounds)")
        #expect(metadata.bounds.south == -20 && metadata.bounds.north == 20, "\(metadata.bounds)")
        #expect(abs(metadata.center.longitude) > 179, "\(metadata.center)")
    }
}
