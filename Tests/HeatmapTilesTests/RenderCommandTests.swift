import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTiles
import Testing

/// `heatmap render` as a user runs it: the same bytes as `heatmap tile` in every output.
@Suite struct RenderCommandTests {
    static let data = Fixtures.path("police_stations.json")

    /// What `heatmap tile` (the library's `tileFor` at the command's 160-entry colour map) draws
    /// for every tile the walk visits.
    static func expected(zooms: ClosedRange<Int>, scale: Int, settings: HeatmapSettings = .paletteDefault) throws
        -> [TileCoordinate: [UInt8]]
    {
        let index = try PointIndex(points: Fixtures.policeStations)
        let layer = HeatmapTileLayer(index: index, settings: settings, cacheBytes: 0)
        var walk = try PyramidWalk(index: index, zooms: zooms, scale: scale, radius: settings.radius)
        var tiles: [TileCoordinate: [UInt8]] = [:]
        while let tile = walk.next() {
            if case .image(let png) = try layer.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale) {
                tiles[tile] = png
            }
        }
        return tiles
    }

    static func check(_ reader: any TileArchiveReader, _ expected: [TileCoordinate: [UInt8]], zooms: ClosedRange<Int>)
        throws
    {
        for (tile, png) in expected {
            let stored = try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y)
            #expect(stored == png, "tile \(tile)")
            if let stored { _ = try PNGDecoder.decode(stored) }  // libpng reads every stored tile
        }
        // Nothing else is stored: a ring of tiles around the data holds nothing.
        for zoom in zooms {
            for x in 0..<(1 << zoom) where zoom <= 5 {
                for y in 0..<(1 << zoom) where expected[TileCoordinate(zoom: zoom, x: x, y: y)] == nil {
                    #expect(try reader.tileData(z: zoom, x: x, y: y) == nil)
                }
            }
        }
    }

    @Test("all three outputs hold, tile for tile, the bytes of heatmap tile", arguments: [1, 2])
    func outputs(scale: Int) throws {
        var settings = HeatmapSettings.paletteDefault
        settings.radius = 25
        let expected = try Self.expected(zooms: 0...7, scale: scale, settings: settings)
        #expect(expected.count > 20)
        for name in ["heat.mbtiles", "heat.pmtiles", "heat"] {
            let output = Fixtures.temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try Fixtures.heatmap([
                "render", Self.data, "--zoom", "0-7", "--output", output, "--radius", "25", "--scale", "\(scale)",
                "--jobs", "2",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardError.contains("\(expected.count) tiles written"), "\(run.standardError)")
            let reader = try TileArchive.open(output)
            #expect(reader.metadata.scale == scale && reader.metadata.minZoom == 0 && reader.metadata.maxZoom == 7)
            #expect(reader.metadata.options["radius"] == "25")
            try Self.check(reader, expected, zooms: 0...7)
            if name == "heat" {
                let suffix = scale == 1 ? "" : "@2x"
                let tile = try #require(expected.keys.first)
                #expect(
                    FileManager.default.fileExists(atPath: "\(output)/\(tile.zoom)/\(tile.x)/\(tile.y)\(suffix).png"))
            }
        }
    }

    @Test("the MBTiles file opens with the sqlite3 tool: integrity, TMS rows, metadata")
    func sqliteTool() throws {
        let sqlite = try #require(Fixtures.program("sqlite3"), "the sqlite3 tool (apt sqlite3) is needed")
        let output = Fixtures.temporaryPath("heat.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Fixtures.heatmap(["render", Self.data, "--zoom", "0-6", "--output", output, "--quiet"])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        let expected = try Self.expected(zooms: 0...6, scale: 1)
        let query = try Fixtures.run(
            sqlite,
            [
                output,
                "PRAGMA integrity_check; SELECT count(*) FROM tiles;"
                    + " SELECT value FROM metadata WHERE name IN ('format', 'type', 'minzoom', 'maxzoom') ORDER BY name;"
                    + " SELECT count(*) FROM tiles WHERE zoom_level = 6 AND tile_column = 57 AND tile_row = 63 - 39;"
                    + " SELECT count(*) FROM (SELECT DISTINCT zoom_level, tile_column, tile_row FROM tiles);",
            ])
        #expect(query.status == 0, "\(query.standardError)")
        let lines = query.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == ["ok", "\(expected.count)", "png", "6", "0", "overlay", "1", "\(expected.count)"])
    }

    @Test(
        "the MBTiles file opens with GDAL, which reads every pixel",
        .enabled(
            if: Fixtures.program("gdalinfo") != nil || ProcessInfo.processInfo.environment["CI_REQUIRE_GDAL"] != nil,
            "needs GDAL's gdalinfo (apt-get install gdal-bin)"))
    func gdal() throws {
        let gdalinfo = try #require(Fixtures.program("gdalinfo"), "gdalinfo (apt gdal-bin) is needed")
        let output = Fixtures.temporaryPath("heat.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Fixtures.heatmap(["render", Self.data, "--zoom", "0-7", "--output", output, "--quiet"])
        #expect(run.status == 0, "\(run.standardError)")
        let info = try Fixtures.run(gdalinfo, ["-mm", output])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("Driver: MBTiles/MBTiles"), "\(info.standardOutput)")
        #expect(info.standardOutput.contains("Band 4"), "\(info.standardOutput)")
        #expect(info.standardOutput.contains("Computed Min/Max=0.000,255.000"), "\(info.standardOutput)")
        #expect(!info.standardError.contains("ERROR"), "\(info.standardError)")
    }

    @Test(
        "mistakes and existing outputs are refused with a clear message",
        arguments: [
            (["--zoom", "0-7"], Int32(64), "render needs --output"),
            (["--output", "x.mbtiles"], 64, "render needs --zoom A-B"),
            (["--zoom", "5-3", "--output", "x.mbtiles"], 64, "--zoom expects A-B with 0 <= A <= B <= 22"),
            (["--zoom", "0-23", "--output", "x.mbtiles"], 64, "--zoom expects A-B"),
            (["--zoom", "0-3", "--output", "x.tiff"], 64, "must end in .mbtiles or .pmtiles, or be a folder"),
            (["--zoom", "0-3", "--output", "x.mbtiles", "--scale", "4"], 64, "--scale is 1, 2 or 3"),
            (["--zoom", "0-3", "--output", "x.mbtiles", "--bounds", "1,2,3"], 64, "--bounds expects W,S,E,N"),
            (["--zoom", "0-3", "--output", "x.mbtiles", "--jobs", "0"], 64, "--jobs is 1...1024"),
            (
                ["--zoom", "0-3", "--output", "x.mbtiles", "--radius", "5"], 64,
                #"radius "5" is not a whole number in 10...50"#
            ),
            (["--zoom", "0-3", "--output", "x.mbtiles", "--force", "--resume"], 64, "exclude each other"),
            (
                ["--zoom", "0-3", "--output", "/nonexistent-folder/x.mbtiles"], 1,
                "/nonexistent-folder/x.mbtiles: cannot create: the folder /nonexistent-folder does not exist"
            ),
            (
                ["--zoom", "0-3", "--output", "/nonexistent-folder/x.pmtiles"], 1,
                "/nonexistent-folder/x.pmtiles: cannot create: the folder /nonexistent-folder does not exist"
            ),
            (
                ["--zoom", "0-3", "--output", "/proc/heatmap-tiles/"], 1,
                "/proc/heatmap-tiles: cannot create the folder"
            ),
        ])
    func mistakes(arguments: [String], status: Int32, message: String) throws {
        let run = try Fixtures.heatmap(["render", Self.data] + arguments)
        #expect(run.status == status)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "x.mbtiles"))
    }

    @Test("an existing output needs --force (or --resume); --resume refuses other options and PMTiles")
    func existing() throws {
        for name in ["heat.mbtiles", "heat.pmtiles", "heat"] {
            let output = Fixtures.temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: output) }
            let first = try Fixtures.heatmap(["render", Self.data, "--zoom", "0-4", "--output", output, "--quiet"])
            #expect(first.status == 0, "\(first.standardError)")
            let again = try Fixtures.heatmap(["render", Self.data, "--zoom", "0-4", "--output", output])
            #expect(again.status == 1)
            #expect(
                again.standardError.contains("\(output) exists already; --force replaces it"), "\(again.standardError)")
            let forced = try Fixtures.heatmap(["render", Self.data, "--zoom", "0-5", "--output", output, "--force"])
            #expect(forced.status == 0, "\(forced.standardError)")
            #expect(try TileArchive.open(output).metadata.maxZoom == 5)
            let other = try Fixtures.heatmap([
                "render", Self.data, "--zoom", "0-5", "--output", output, "--resume", "--radius", "30",
            ])
            #expect(other.status == 1)
            let reason =
                name.hasSuffix(".pmtiles")
                ? "cannot be resumed; --force renders it again" : "was rendered with other options"
            #expect(other.standardError.contains(reason), "\(other.standardError)")
        }
        let foreign = Fixtures.temporaryPath("foreign")
        defer { try? FileManager.default.removeItem(atPath: foreign) }
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: foreign + "/notes.txt", contents: Data("mine".utf8))
        let refused = try Fixtures.heatmap(["render", Self.data, "--zoom", "0-3", "--output", foreign, "--force"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("has no metadata.json of heatmap render; it is left alone"))
        #expect(FileManager.default.fileExists(atPath: foreign + "/notes.txt"))
    }
}
