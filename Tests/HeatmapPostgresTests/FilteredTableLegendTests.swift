import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

@testable import HeatmapPostgres

/// The command's filters over a table, wherever the command draws: `render`'s legends follow
/// them (``expectLegends(table:filters:kept:)``), `serve --datetime --category` draws with
/// them, and `image` reads the table's time range and category values only when a filter or an
/// animation needs them.
@Suite(.serialized, .needsPostgres) struct FilteredTableLegendTests {
    /// The legends `render` writes for `arguments` into MBTiles.
    static func legends(_ arguments: [String]) throws -> [String: TileLegend] {
        let output = HeatmapCommand.temporaryPath("legends.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try HeatmapCommand.run(
            ["render"] + arguments + ["--zoom", "0-5", "--output", output, "--quiet", "--jobs", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        return try TileArchive.open(output).metadata.legends ?? [:]
    }

    /// `render --postgres` with `filters` writes the legends of the `kept` rows' file, not the
    /// table's; with `--scale-of all`, every row's M(z), fixed (FilteredTableOutputTests.renderOfTable).
    static func expectLegends(table: [String], filters: [String], kept: String) throws {
        let filtered = try Self.legends(table + filters)
        let wanted = try Self.legends([kept])
        let whole = try Self.legends(table)
        #expect(filtered.keys.sorted() == ["0", "1", "2", "3", "4", "5"])
        for zoom in 0...5 {
            let key = String(zoom)
            guard let found = filtered[key], let want = wanted[key] else {
                Issue.record("z \(zoom): a legend is missing")
                continue
            }
            // The table sums in float8, the file in memory: as the intensities, equal to 1e-5.
            #expect(abs(found.maximum - want.maximum) <= 1e-5 * want.maximum, "z \(zoom)")
            #expect(found.stops.map(\.color) == want.stops.map(\.color), "z \(zoom)")
            #expect(found.maximum != whole[key]?.maximum, "z \(zoom): the filter's M(z) is its own")
        }
        // With --scale-of all, every row's M(z), fixed.
        let all = try Self.legends(table + filters + ["--scale-of", "all"])
        for zoom in 0...5 {
            #expect(all[String(zoom)]?.maximum == whole[String(zoom)]?.maximum, "z \(zoom)")
            #expect(all[String(zoom)]?.normalization == "fixed", "z \(zoom)")
        }
    }

    /// The metadata `render` writes for `arguments` into MBTiles.
    static func metadata(_ arguments: [String]) throws -> TileMetadata {
        let output = HeatmapCommand.temporaryPath("metadata.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try HeatmapCommand.run(
            ["render"] + arguments + ["--zoom", "0-3", "--output", output, "--quiet", "--jobs", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        return try TileArchive.open(output).metadata
    }

    @Test("render --postgres with filters counts the rows they keep, bounds them and names the filters")
    func renderMetadataOfKeptRows() throws {
        let cluster = try TestCluster.require()
        let table = try FilteredTableOutputTests.imported("legend_metadata", cluster: cluster)
        let kept = try FilteredTableOutputTests.keptFile()
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let filters = ["--datetime", FilteredTableOutputTests.window, "--category", "kind:theft,arson"]
        let filtered = try Self.metadata(table + filters)
        let wanted = try Self.metadata([kept])
        let whole = try Self.metadata(table)
        let rows = try #require(wanted.options["points"])
        let all = try #require(whole.options["points"])
        #expect(rows != all)
        #expect(filtered.options["kept"] == rows)
        #expect(filtered.options["points"] == all)
        let query = try #require(filtered.options["filter"])
        #expect(query.hasPrefix("datetime=") && query.hasSuffix("&category=kind:theft,arson"))
        #expect(
            filtered.description.hasPrefix(
                "Heatmap of \(rows) of \(all) points from PostgreSQL table legend_metadata that \(query) keeps ("))
        #expect(whole.options["kept"] == nil && whole.options["filter"] == nil)
        // The kept rows' extent (the table's as float8, the file's as read: equal to 1e-9°).
        for (found, want) in [
            (filtered.bounds.south, wanted.bounds.south), (filtered.bounds.west, wanted.bounds.west),
            (filtered.bounds.north, wanted.bounds.north), (filtered.bounds.east, wanted.bounds.east),
        ] {
            #expect(abs(found - want) <= 1e-9, "\(filtered.bounds) against \(wanted.bounds)")
        }
        #expect(filtered.bounds != whole.bounds)
    }

    @Test("serve --postgres --datetime --category draws the table with them, as tile does")
    func serveDrawsWithTheFilters() async throws {
        let cluster = try TestCluster.require()
        let table = try FilteredTableOutputTests.imported("legend_serve", cluster: cluster)
        let filters = ["--datetime", FilteredTableOutputTests.window, "--category", "kind:theft,arson"]
        let path = HeatmapCommand.temporaryPath("served-filter.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try HeatmapCommand.run(["tile"] + table + filters + ["3/7/4", "--output", path])
        #expect(run.status == 0, "\(run.standardError)")
        let server = try ServeProcess(table + filters)
        let served = try await LoopbackHTTP.get(server.base + "/legend_serve/3/7/4.png")
        let other = try await LoopbackHTTP.get(server.base + "/legend_serve/3/7/4.png?category=kind:theft,burglary")
        _ = server.stop()
        #expect(served.status == 200)
        #expect(served.body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(other.status == 200 && other.body != served.body, "a request's own filters replace the command's")
        // A value the table lacks stops serve before it listens, naming it.
        #expect(throws: (any Error).self) { try ServeProcess(table + ["--category", "kind:piracy"]) }
    }

    @Test("image --postgres reads the categories only for a filter: a column of too many values draws without one")
    func imageReadsFacetsOnlyWhenFiltered() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("DROP TABLE IF EXISTS many_values")
        try connection.execute(
            """
            CREATE TABLE many_values AS SELECT (i % 4) * 5.0 AS lat, (i % 3) * 5.0 + 5 AS lng, \
            1.0 AS weight, 'id' || i AS id FROM generate_series(1, \(CategoryDictionary.maximumValues + 10)) i
            """)
        let output = HeatmapCommand.temporaryPath("many.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let base = [
            "image", "--postgres", cluster.url, "--table", "many_values", "--categories", "id", "--center", "0,10",
            "--zoom", "2", "--size", "200x100", "--max-intensity", "5000", "--output", output,
        ]
        let plain = try HeatmapCommand.run(base)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(((try? Data(contentsOf: URL(fileURLWithPath: output)))?.count ?? 0) > 100)
        let filtered = try HeatmapCommand.run(base + ["--category", "id:id7"])
        #expect(filtered.status != 0 && filtered.standardError.contains("id"), "\(filtered.standardError)")
    }
}
