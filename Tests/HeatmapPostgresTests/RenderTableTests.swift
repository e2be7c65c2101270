import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTiles
import Testing

@testable import HeatmapPostgres

/// `heatmap render --postgres` as a user runs it: the archive holds, byte for byte, the tiles
/// `heatmap render` makes of the same points from a file.
@Suite(.serialized) struct RenderTableTests {
    static let zooms = 0...5

    /// Every tile of `zooms` an archive holds, read by its reader (the grid is small enough to ask).
    static func tiles(_ path: String) throws -> [TileCoordinate: [UInt8]] {
        let reader = try TileArchive.open(path)
        var tiles: [TileCoordinate: [UInt8]] = [:]
        for zoom in zooms {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) {
                    if let data = try reader.tileData(z: zoom, x: x, y: y) {
                        tiles[TileCoordinate(zoom: zoom, x: x, y: y)] = data
                    }
                }
            }
        }
        return tiles
    }

    /// Renders `source` (a file, or `--postgres …` arguments) into each kind of output and
    /// returns each output's tiles, by the output's name.
    static func render(_ source: [String], options: [String] = []) throws -> [String: [TileCoordinate: [UInt8]]] {
        var found: [String: [TileCoordinate: [UInt8]]] = [:]
        for name in ["heat.mbtiles", "heat.pmtiles", "heat"] {
            let output = HeatmapCommand.temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try HeatmapCommand.run(
                ["render"] + source + ["--zoom", "\(zooms.lowerBound)-\(zooms.upperBound)", "--output", output]
                    + ["--jobs", "2", "--quiet"] + options)
            #expect(run.status == 0, "\(source) into \(name): \(run.standardError)")
            found[name] = try tiles(output)
        }
        return found
    }

    /// Renders the table and the file with `options`, and expects the same tiles in every output.
    static func expectSame(table: [String], file: String, options: [String] = []) throws {
        let fromTable = try render(table, options: options)
        let fromFile = try render([file], options: options)
        for (name, expected) in fromFile {
            let tiles = fromTable[name] ?? [:]
            #expect(expected.count > 10, "\(name): \(expected.count) tiles")
            #expect(Set(tiles.keys) == Set(expected.keys), "\(name): the tile lists differ")
            for (tile, png) in expected { #expect(tiles[tile] == png, "\(name): tile \(tile)") }
            #expect(expected[TileCoordinate(zoom: 0, x: 0, y: 0)] != nil, "\(name): z0 is drawn")
        }
    }

    @Test(
        "an imported table renders the file's tiles in MBTiles, PMTiles and a folder: z0, antimeridian", .needsPostgres)
    func importedTable() throws {
        let cluster = try TestCluster.require()
        let file = try HeatmapCommand.csv(PostgresSourceTests.points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let imported = try HeatmapCommand.run(
            ["import", file, "--postgres", cluster.url, "--table", "render_points", "--replace"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let table = ["--postgres", cluster.url, "--table", "render_points"]
        try Self.expectSame(table: table, file: file, options: ["--radius", "25"])
        // The antimeridian's tiles are there on both sides, and scale 2 and an area keep agreeing.
        try Self.expectSame(table: table, file: file, options: ["--scale", "2", "--bounds", "170,-20,-170,-10"])
    }

    @Test("a PostGIS geometry column renders the file's tiles", .needsPostGIS)
    func geometryColumn() throws {
        let (cluster, connection) = try GeometryTableTests.postgis()
        let points = PostgresSourceTests.points.filter { abs($0.coordinate.latitude) <= 85 }
        try GeometryTableTests.makeTable("render_geo", type: "geometry(Point, 4326)", points: points, on: connection)
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Self.expectSame(
            table: ["--postgres", cluster.url, "--table", "render_geo", "--geometry", "geom", "--weight", "w"],
            file: file)
    }

    @Test("options that read a file are refused as tile refuses them; a server down is an error")
    func refusals() throws {
        let output = HeatmapCommand.temporaryPath("refused.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let down = ["--postgres", "postgresql://someone:pa55word@127.0.0.1:1/none", "--table", "t"]
        let cases: [([String], Int32, String)] = [
            (["--skip-invalid"], 64, "--skip-invalid reads a file"),
            (["--data-format", "csv"], 64, "--data-format reads a file"),
            (["--layer-name", "x"], 64, "--layer-name names a served layer"),
            (["points.csv"], 64, "no DATA with --postgres"),
            ([], 1, "could not connect to PostgreSQL"),
        ]
        for (extra, status, words) in cases {
            let run = try HeatmapCommand.run(["render"] + down + ["--zoom", "0-3", "--output", output] + extra)
            #expect(run.status == status, "\(extra): \(run.standardError)")
            #expect(run.standardError.contains(words), "\(extra): \(run.standardError)")
            #expect(!run.standardError.contains("pa55word"), "the password is never printed")
            #expect(!FileManager.default.fileExists(atPath: output), "\(extra): nothing is written")
        }
    }

    @Test(
        "the walk stops with the table's newer state rather than mix two: pinned, it reads the count with EXISTS",
        .needsPostgres)
    func changedTable() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let points = Array(PostgresSourceTests.points.prefix(50))
        _ = try PostgresImport.run(points: points, into: "render_changes", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "render_changes"))
        let count = try source.changeCount()
        let pinned = source.pinned(toChangeCount: count)
        var walk = try PyramidWalk(index: try PointIndex(points: points), zooms: 0...4, scale: 1, radius: 20)
        var fromTable = try PyramidWalk(source: pinned, zooms: 0...4, scale: 1) { _ in 20 }
        var listed: [TileCoordinate] = []
        while let tile = fromTable.next() { listed.append(tile) }
        var expected: [TileCoordinate] = []
        while let tile = walk.next() { expected.append(tile) }
        #expect(fromTable.failure == nil && listed == expected && !listed.isEmpty)
        try connection.execute("INSERT INTO render_changes (lat, lng) VALUES (-37.5, 145.1)")
        var after = try PyramidWalk(source: pinned, zooms: 0...4, scale: 1) { _ in 20 }
        #expect(after.next() == nil)
        #expect(
            after.failure?.description.contains("the table changed") == true, "\(String(describing: after.failure))")
        #expect(throws: HeatmapError.self) { _ = try after.counted() }
    }
}
