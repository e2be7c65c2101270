import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTiles
import Testing

@testable import HeatmapPostgres

/// The other ways to a filtered table (issue 28): `heatmap import --time --categories` copies
/// the columns a file's filters read, and `heatmap image` and `render` draw a table's filtered
/// rows, each equal to the same command over a file of exactly the rows kept.
@Suite(.serialized, .needsPostgres) struct FilteredTableOutputTests {
    static let window = "2024-02-10T05:00:00Z/2024-09-01"

    /// The test rows as a CSV file with a time (Unix seconds) and the two categories.
    static func rowsFile() throws -> String {
        let path = HeatmapCommand.temporaryPath("rows.csv")
        var text = "lat,lng,weight,t,kind,n\n"
        for row in FilteredTableTests.rows {
            let point = row.point
            text += "\(point.coordinate.latitude),\(point.coordinate.longitude),\(point.intensity),"
            text += "\(row.second),\(row.kind),\(row.number)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The CSV of the rows in ``window`` of kind theft or arson.
    static func keptFile() throws -> String {
        let window = try TimeWindow(parsing: Self.window)
        return try HeatmapCommand.csv(
            FilteredTableTests.kept(window: window, keep: { $0.kind == "theft" || $0.kind == "arson" }))
    }

    /// The columns of `table` after `import`'s six, with their types (`t timestamp with time zone, …`).
    static func copiedColumns(_ table: String, on connection: PostgresConnection) throws -> String? {
        try connection.execute(
            """
            SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) \
            FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 6 AND NOT attisdropped
            """, [table]
        ).text(0, 0)
    }

    /// Imports the rows file into `table` with its time and categories.
    static func imported(_ table: String, cluster: TestCluster) throws -> [String] {
        let file = try rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try HeatmapCommand.run(
            [
                "import", file, "--postgres", cluster.url, "--table", table, "--replace", "--time", "t", "--categories",
                "kind,n",
            ])
        #expect(run.status == 0, "\(run.standardError)")
        return ["--postgres", cluster.url, "--table", table, "--time", "t", "--categories", "kind,n"]
    }

    @Test("import --time --categories copies them: the table's filtered tiles are the kept rows' file's")
    func importCopiesFilterColumns() throws {
        let cluster = try TestCluster.require()
        // Twice: --replace takes the table made with the copied columns.
        _ = try Self.imported("imported_filters", cluster: cluster)
        let table = try Self.imported("imported_filters", cluster: cluster)
        let connection = try PostgresConnection(cluster.conninfo)
        #expect(
            try Self.copiedColumns("imported_filters", on: connection)
                == "t timestamp with time zone, kind text, n text")
        // Each value as the file gives it (a quote too), each time its second.
        let hostile = FilteredTableTests.rows.filter { $0.kind.contains("DROP TABLE") }
        let counted = try connection.execute(
            "SELECT count(*), count(DISTINCT kind), sum(extract(epoch FROM t))::int8 FROM imported_filters "
                + "WHERE kind LIKE '%DROP TABLE%'")
        #expect(counted.text(0, 0) == "\(hostile.count)" && counted.text(0, 1) == "1")
        #expect(counted.text(0, 2) == "\(hostile.reduce(Int64(0)) { $0 + $1.second })")
        let kept = try Self.keptFile()
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let filters = ["--datetime", Self.window, "--category", "kind:theft,arson"]
        for tile in ["0/0/0", "6/57/39@2x", "3/7/4"] {
            let a = try FilteredTableCommandTests.intensities(["tile"] + table + filters + [tile])
            let b = try FilteredTableCommandTests.intensities(["tile", kept, tile])
            #expect(a.count == b.count && !a.isEmpty, "tile \(tile)")
            let worst = zip(a, b).map { abs($0 - $1) / max(abs($1), 1e-30) }.max() ?? 0
            #expect(worst <= 1e-5, "tile \(tile): \(worst)")
        }
    }

    @Test("import refuses a copied column named as a position's, and an append of columns the table lacks")
    func importRefusals() throws {
        let cluster = try TestCluster.require()
        let file = try Self.rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let base = ["import", file, "--postgres", cluster.url, "--table"]
        let plain = try HeatmapCommand.run(base + ["imported_plain", "--replace"])
        #expect(plain.status == 0, "\(plain.standardError)")
        let append = try HeatmapCommand.run(base + ["imported_plain", "--append", "--time", "t"])
        #expect(append.status != 0)
        #expect(append.standardError.contains("column t: an append with --time"), "\(append.standardError)")
        let renamed = try HeatmapCommand.run(
            base + ["imported_key", "--replace", "--categories", "lat"])
        #expect(renamed.status != 0 && renamed.standardError.contains("column lat"), "\(renamed.standardError)")
        let connection = try PostgresConnection(cluster.conninfo)
        let count = try connection.execute("SELECT count(*) FROM imported_plain").text(0, 0)
        #expect(count == "\(FilteredTableTests.rows.count)", "the refused append left the table as it was")
    }

    @Test("image --postgres --datetime --category is the image of the kept rows' file")
    func imageOfTable() throws {
        let cluster = try TestCluster.require()
        let table = try Self.imported("imported_image", cluster: cluster)
        let kept = try Self.keptFile()
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let view = ["--center", "20,10", "--zoom", "2", "--size", "500x300"]
        let fromTable = HeatmapCommand.temporaryPath("table.png")
        let fromFile = HeatmapCommand.temporaryPath("file.png")
        let a = try HeatmapCommand.run(
            ["image"] + table + view + [
                "--datetime", Self.window, "--category", "kind:theft,arson", "--output",
                fromTable,
            ])
        let b = try HeatmapCommand.run(["image", kept] + view + ["--output", fromFile])
        #expect(a.status == 0 && b.status == 0, "\(a.standardError) \(b.standardError)")
        let tableBytes = try Data(contentsOf: URL(fileURLWithPath: fromTable))
        #expect(tableBytes.count > 100)
        #expect(tableBytes == (try Data(contentsOf: URL(fileURLWithPath: fromFile))))
        // A value no row holds names it.
        let unknown = try HeatmapCommand.run(
            ["image"] + table + view + ["--category", "kind:fraud", "--output", fromTable])
        #expect(unknown.status != 0 && unknown.standardError.contains("fraud"), "\(unknown.standardError)")
    }

    @Test("render --postgres --datetime --category: the tiles and legends of the kept rows' file, as tile draws them")
    func renderOfTable() throws {
        let cluster = try TestCluster.require()
        let table = try Self.imported("imported_render", cluster: cluster)
        let kept = try Self.keptFile()
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let filters = ["--datetime", Self.window, "--category", "kind:theft,arson"]
        let fromTable = try RenderTableTests.render(table + filters)
        let fromFile = try RenderTableTests.render([kept])
        for (name, expected) in fromFile {
            let tiles = fromTable[name] ?? [:]
            #expect(expected.count > 10, "\(name): \(expected.count) tiles")
            #expect(Set(tiles.keys) == Set(expected.keys), "\(name): the tile lists differ")
            for (tile, png) in expected { #expect(tiles[tile] == png, "\(name): tile \(tile)") }
        }
        // `tile` draws the same picture.
        let path = HeatmapCommand.temporaryPath("tile.png")
        let run = try HeatmapCommand.run(["tile"] + table + filters + ["0/0/0", "--output", path])
        #expect(run.status == 0, "\(run.standardError)")
        let tile = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fromTable["heat.mbtiles"]?[TileCoordinate(zoom: 0, x: 0, y: 0)] == tile)
        try FilteredTableLegendTests.expectLegends(table: table, filters: filters, kept: kept)
    }
}
