import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// Table names near PostgreSQL's 63 bytes: every name derived from them is distinct and fits
/// (a 31-letter Cyrillic name is 62 bytes in UTF-8, its triggers' names were 70 and more and
/// collided when cut), the table imports and a running `serve` sees its INSERTs; a longer
/// name is refused; a table imported before under the names of then keeps working.
@Suite(.serialized, .needsPostgres) struct LongNameTests {
    static let cyrillic = String(repeating: "Ж", count: 31)
    static let ascii63 = "t" + String(repeating: "x", count: 62)

    /// The triggers on `table`: (name, function).
    static func triggers(of table: String, on connection: PostgresConnection) throws -> [(String, String)] {
        let rows = try connection.execute(
            """
            SELECT t.tgname, p.proname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid \
            WHERE t.tgrelid = to_regclass($1) AND NOT t.tgisinternal ORDER BY t.tgname
            """, [PostgresConnection.quoted(identifier: table)])
        return (0..<rows.rowCount).compactMap { row in
            guard let name = rows.text(row, 0), let function = rows.text(row, 1) else { return nil }
            return (name, function)
        }
    }

    @Test("the derived names of a long name share one short prefix and fit; short names keep theirs")
    func derived() {
        let utf8 = ServerEncoding(name: "UTF8")
        #expect(ObjectNames(table: "crimes", encoding: utf8).name("_cells") == "crimes_cells")
        #expect(ObjectNames(table: "gis.crimes", encoding: utf8).quoted("_cells") == "\"gis\".\"crimes_cells\"")
        for table in [Self.cyrillic, Self.ascii63, "s." + Self.ascii63, String(repeating: "é", count: 30) + "x"] {
            let names = ObjectNames(table: table, encoding: utf8)
            #expect(names.isShortened)
            var seen: Set<String> = []
            for suffix in ["_position", "_moved", "_changes", "_cells", "_key", "_log_shards", "_cells_shard256"]
                + StatementTriggers.suffixes(infix: "log") + StatementTriggers.suffixes(infix: "summaries")
            {
                let name = names.name(suffix)
                #expect(name.utf8.count <= 63, "\(name)")
                #expect(name.hasSuffix(suffix))
                #expect(seen.insert(name).inserted)
            }
            #expect(ObjectNames.server(of: table, shard: 256, encoding: utf8).utf8.count <= 63)
        }
        // Two long names that differ only past the cut get different prefixes.
        let a = ObjectNames(table: Self.ascii63, encoding: utf8)
        let b = ObjectNames(table: String(Self.ascii63.dropLast()) + "y", encoding: utf8)
        #expect(a.prefix != b.prefix)
        // Counted in the database's encoding: 50 Cyrillic letters take 50 bytes in a one-byte encoding.
        let koi8 = ObjectNames(table: String(repeating: "Ж", count: 50), encoding: ServerEncoding(name: "KOI8R"))
        #expect(
            koi8.prefix == String(repeating: "Ж", count: 35) + "_"
                + NameHash.hex(String(repeating: "Ж", count: 50), digits: 8))
    }

    @Test(
        "a 31-letter Cyrillic name and a 63-byte name import with all 11 triggers, and a running serve sees INSERTs",
        arguments: [cyrillic, ascii63])
    func liveUpdates(table: String) async throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let quoted = PostgresConnection.quoted(identifier: table)
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: table, connection: cluster.conninfo, mode: .replace)
        let triggers = try Self.triggers(of: table, on: connection)
        #expect(triggers.count == 11, "\(triggers)")
        #expect(Set(triggers.map(\.0)).count == 11)
        let functions = Dictionary(grouping: triggers.map(\.1), by: { $0 }).mapValues(\.count)
        #expect(
            functions == [
                "heatmap_fill_position": 2, "heatmap_count_change": 1, "heatmap_log_change": 4,
                "heatmap_cells_change": 4,
            ])
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        #expect(source.layout.summaries != nil, "the summaries are found")
        #expect(try source.missingTriggers().isEmpty)
        let info = try HeatmapCommand.run(["info", "--postgres", cluster.url, "--table", table])
        #expect(
            info.standardOutput.contains("live updates: the triggers import makes are all there"),
            "\(info.standardOutput)")
        // serve sees an INSERT near Melbourne.
        let server = try ServeProcess(["--postgres", cluster.url, "--table", table, "--layer-name", "long"])
        let before = try await LoopbackHTTP.get(server.base + "/long/7/115/78.png")
        #expect(before.status == 200)
        try connection.execute("INSERT INTO \(quoted) (lat, lng, weight) VALUES (-37.80, 144.96, 50)")
        var after = before
        for _ in 0..<100 where after.body == before.body {
            try await Task.sleep(for: .milliseconds(100))
            after = try await LoopbackHTTP.get(server.base + "/long/7/115/78.png")
        }
        let log = server.stop()
        #expect(after.status == 200 && after.body != before.body, "the tile changed after the INSERT: \(log)")
        // The summaries followed the INSERT (the summaries' trigger fired).
        let cells = try connection.execute(
            "SELECT sum(weight) FROM \(source.layout.summaries ?? "") WHERE level = 24"
        ).text(0, 0).flatMap(Double.init)
        let total = LiveDataTests.points.reduce(0) { $0 + $1.intensity } + 50
        #expect(abs((cells ?? 0) - total) < 1e-3, "\(cells ?? 0) against \(total)")
        // A trigger dropped shows in info.
        try connection.execute(
            "DROP TRIGGER \(MadeObject.quoted(triggers.first { $0.1 == "heatmap_log_change" }?.0 ?? "")) ON \(quoted)")
        let missing = try HeatmapCommand.run(["info", "--postgres", cluster.url, "--table", table])
        #expect(
            missing.standardOutput.contains("live updates: missing triggers: heatmap_log_change() AFTER"),
            "\(missing.standardOutput)")
        let json = try HeatmapCommand.run(["info", "--postgres", cluster.url, "--table", table, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let listed = report?["missingTriggers"] as? [String] ?? []
        #expect(listed.count == 1 && listed[0].hasPrefix("heatmap_log_change() AFTER"), "\(json.standardOutput)")
        // serve says so at start, and an --append puts the trigger back.
        let again = try ServeProcess(["--postgres", cluster.url, "--table", table, "--layer-name", "long"])
        let warning = again.stop()
        #expect(warning.contains("lacks triggers import makes (heatmap_log_change() AFTER"), "\(warning)")
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: table, connection: cluster.conninfo, mode: .append)
        #expect(try source.missingTriggers().isEmpty)
    }

    @Test("a name of 64 bytes is refused, nothing made")
    func tooLong() throws {
        let cluster = try TestCluster.require()
        let name = Self.ascii63 + "z"
        do {
            _ = try PostgresImport.run(
                points: LiveDataTests.points, into: name, connection: cluster.conninfo, mode: .create)
            Issue.record("a 64-byte name was accepted")
        } catch {
            #expect(error == .nameTooLong(name: name, bytes: 64), "\(error)")
            #expect(error.description.contains("PostgreSQL keeps at most 63 bytes of a name"))
        }
        let cyrillic = String(repeating: "Ж", count: 32)
        #expect(throws: PostgresError.nameTooLong(name: cyrillic, bytes: 64)) {
            try PostgresImport.run(
                points: LiveDataTests.points, into: cyrillic, connection: cluster.conninfo, mode: .create)
        }
    }

    @Test("a long table imported under the names of before (cut by PostgreSQL) keeps its summaries; --append cleans up")
    func earlierNames() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let table = "older_" + String(repeating: "n", count: 44)  // 50 bytes: `_summaries_insert` made 67
        let quoted = PostgresConnection.quoted(identifier: table)
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: table, connection: cluster.conninfo, mode: .replace)
        let names = ObjectNames(table: table, encoding: connection.serverEncoding)
        #expect(names.isShortened)
        // As an earlier version left it: the summaries under `T_cells`, the triggers under `T_…` cut at 63 bytes.
        let old = table + "_cells"
        try connection.execute("DROP TABLE IF EXISTS \(MadeObject.quoted(old))")
        try connection.execute("ALTER TABLE \(names.quoted("_cells")) RENAME TO \(MadeObject.quoted(old))")
        for (name, function) in try Self.triggers(of: table, on: connection) where function != "heatmap_fill_position" {
            try connection.execute("DROP TRIGGER \(MadeObject.quoted(name)) ON \(quoted)")
        }
        try connection.execute(
            ChangeCounter.triggerStatement(table: quoted, trigger: MadeObject.quoted(table + "_changes")))
        for (suffix, event, referencing) in StatementTriggers.events {
            try connection.execute(
                "CREATE TRIGGER \(MadeObject.quoted(String((table + "_summaries_" + suffix).prefix(63)))) "
                    + "AFTER \(event) ON \(quoted) \(referencing) FOR EACH STATEMENT EXECUTE FUNCTION "
                    + "heatmap_cells_change(\(MadeObject.literal(MadeObject.quoted(old))))")
        }
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        #expect(source.layout.summaries == MadeObject.quoted(old), "the summaries of then are read")
        try connection.execute("INSERT INTO \(quoted) (lat, lng, weight) VALUES (-37.8, 145, 2)")
        let memory = HeatmapTileLayer(
            index: try PointIndex(
                points: LiveDataTests.points + [
                    WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 145), intensity: 2)
                ]))
        let fresh = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        #expect(
            try HeatmapTileLayer(source: fresh).tileFor(x: 115, y: 78, zoom: 7)
                == memory.tileFor(x: 115, y: 78, zoom: 7))
        // An append makes the triggers under the new names, each function once an event.
        _ = try PostgresImport.run(
            points: Array(LiveDataTests.points.prefix(3)), into: table, connection: cluster.conninfo, mode: .append)
        let after = try Self.triggers(of: table, on: connection)
        #expect(after.count == 11, "\(after)")
        #expect(after.allSatisfy { $0.0.hasPrefix(names.prefix) }, "\(after)")
        #expect(
            try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table)).missingTriggers()
                .isEmpty)
    }

    @Test("a 63-byte name sharded over two servers: distinct servers, partitions and logs, tiles as memory's")
    func sharded() throws {
        let cluster = try ShardingTests.require()
        let table = "s" + String(repeating: "h", count: 62)
        let shards = cluster.shards.map(\.conninfo)
        _ = try PostgresShardedImport.run(
            points: ShardingTests.points, into: table, coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
        let coordinator = try PostgresConnection(cluster.coordinator.conninfo)
        let names = ObjectNames(table: table, encoding: coordinator.serverEncoding)
        let found = try coordinator.execute(
            """
            SELECT (SELECT count(*) FROM pg_foreign_server WHERE starts_with(srvname, $1)), \
            (SELECT count(*) FROM pg_class WHERE starts_with(relname, $1) AND relkind = 'f'), \
            (SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass($2) AND NOT tgisinternal)
            """, [names.prefix, PostgresConnection.quoted(identifier: table)])
        #expect(found.text(0, 0) == "2", "two servers")
        #expect(found.text(0, 1) == "6", "the partitions, the summaries' and the logs' foreign tables")
        #expect(found.text(0, 2) == "2", "the counter and the gathering trigger")
        let source = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: table))
        #expect(try source.missingTriggers().isEmpty)
        let memory = HeatmapTileLayer(index: try PointIndex(points: ShardingTests.points))
        #expect(
            try HeatmapTileLayer(source: source).tileFor(x: 115, y: 78, zoom: 7)
                == memory.tileFor(x: 115, y: 78, zoom: 7))
        // Again with --replace: every name is HeatmapKit's.
        _ = try PostgresShardedImport.run(
            points: ShardingTests.points, into: table, coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
    }
}
