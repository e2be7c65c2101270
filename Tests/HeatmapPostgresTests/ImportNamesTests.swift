import Foundation
import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapPostgres

/// `import` never empties, rewrites or drops what it did not make: every name it makes is
/// checked first, and one that is someone else's is an error naming it and its kind, exit 1,
/// nothing written; what it makes is marked (`COMMENT … IS 'heatmapkit: …'`), and a table made
/// by an earlier version, unmarked, is recognised by its shape and triggers.
@Suite(.serialized, .needsPostgres) struct ImportNamesTests {
    static let points = LiveDataTests.points

    /// A fresh database of the shared cluster and a connection to it.
    static func database(_ name: String) throws -> (url: String, connection: PostgresConnection) {
        let url = try TestCluster.require().freshDatabase(name)
        return (url, try PostgresConnection(ConnectionString(url)))
    }

    /// The number of rows of `table` on `connection`, `nil` when it does not exist.
    static func rows(_ table: String, on connection: PostgresConnection) throws -> Int? {
        guard try connection.execute("SELECT to_regclass($1) IS NOT NULL", [table]).text(0, 0) == "t" else {
            return nil
        }
        return try connection.execute("SELECT count(*) FROM \(table)").text(0, 0).flatMap { Int($0) }
    }

    /// Expects `run` to fail with ``PostgresError/notMadeByHeatmapKit(kind:name:found:)`` for `kind` `name`.
    static func expectRefused(
        _ kind: String, _ name: String, found: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ run: () throws -> Void
    ) {
        do {
            try run()
            Issue.record("\(kind) \(name) was not refused", sourceLocation: sourceLocation)
        } catch let error as PostgresError {
            guard case .notMadeByHeatmapKit(let k, let n, let f) = error else {
                Issue.record("\(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(k == kind && n.contains(name), "\(error)", sourceLocation: sourceLocation)
            if let found { #expect(f.contains(found), "\(error)", sourceLocation: sourceLocation) }
            #expect(error.description.contains("nothing was written"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("a table T_cells of the user's (any shape, or the summaries' own) stops the import: named, nothing written")
    func userCells() throws {
        let (url, connection) = try Self.database("names_cells")
        let conninfo = ConnectionString(url)
        for shape in [
            "id int, note text",
            "level int2 NOT NULL, key int8 NOT NULL, x int8 NOT NULL, y int8 NOT NULL, weight float8 NOT NULL",
        ] {
            try connection.execute("DROP TABLE IF EXISTS crimes_cells")
            try connection.execute("CREATE TABLE crimes_cells (\(shape))")
            let values = shape.hasPrefix("id") ? "(1, 'mine')" : "(1, 2, 3, 4, 5)"
            try connection.execute("INSERT INTO crimes_cells VALUES \(values)")
            for mode in [PostgresImport.Mode.create, .replace] {
                Self.expectRefused("table", "\"crimes_cells\"", found: "a table with columns") {
                    _ = try PostgresImport.run(points: Self.points, into: "crimes", connection: conninfo, mode: mode)
                }
            }
            #expect(try Self.rows("crimes", on: connection) == nil, "the table was not made")
            #expect(try Self.rows("crimes_cells", on: connection) == 1, "the user's table is as it was")
            #expect(try Self.rows("heatmap_versions", on: connection) == nil, "nothing shared was made either")
        }
        // The command says so and exits 1.
        let data = try HeatmapCommand.csv(Self.points)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = try HeatmapCommand.run(["import", data, "--postgres", url, "--table", "crimes"])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(
            run.standardError.contains(
                "heatmap: import would make or change the table \"crimes_cells\", but one of that name exists and was "
                    + "not made by HeatmapKit"), "\(run.standardError)")
        #expect(try Self.rows("crimes_cells", on: connection) == 1)
        // Gone, the import runs, and what it made is marked.
        try connection.execute("DROP TABLE crimes_cells")
        _ = try PostgresImport.run(points: Self.points, into: "crimes", connection: conninfo, mode: .create)
        let marked = try connection.execute(
            """
            SELECT obj_description('crimes'::regclass, 'pg_class'), obj_description('crimes_cells'::regclass, 'pg_class'), \
            obj_description('crimes_key'::regclass, 'pg_class'), obj_description('heatmap_versions'::regclass, 'pg_class'), \
            obj_description('heatmap_key(float8, float8)'::regprocedure, 'pg_proc'), \
            (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'crimes'::regclass AND NOT tgisinternal \
            AND obj_description(oid, 'pg_trigger') LIKE 'heatmapkit%'), \
            (SELECT count(*) FROM pg_trigger WHERE tgrelid = 'crimes'::regclass AND NOT tgisinternal)
            """)
        for column in 0..<5 {
            #expect(
                marked.text(0, column)?.hasPrefix("heatmapkit: ") == true, "\(column): \(marked.text(0, column) ?? "")")
        }
        #expect(marked.text(0, 5) == "11" && marked.text(0, 6) == "11", "every trigger marked")
    }

    @Test("a user's view, index, trigger or function under a name import makes is refused, naming its kind")
    func otherKinds() throws {
        let (url, connection) = try Self.database("names_kinds")
        let conninfo = ConnectionString(url)
        // A view named T_cells.
        try connection.execute("CREATE VIEW parks_cells AS SELECT 1 AS one")
        Self.expectRefused("table", "\"parks_cells\"", found: "a view") {
            _ = try PostgresImport.run(points: Self.points, into: "parks", connection: conninfo, mode: .create)
        }
        try connection.execute("DROP VIEW parks_cells")
        // An index named T_key on another table.
        try connection.execute("CREATE TABLE mine (a int)")
        try connection.execute("CREATE INDEX parks_key ON mine (a)")
        Self.expectRefused("index", "\"parks_key\"") {
            _ = try PostgresImport.run(points: Self.points, into: "parks", connection: conninfo, mode: .create)
        }
        try connection.execute("DROP INDEX parks_key")
        // A function of import's signature that is the user's.
        try connection.execute(
            "CREATE FUNCTION heatmap_key(a float8, b float8) RETURNS int8 LANGUAGE sql AS 'SELECT 7::int8'")
        Self.expectRefused("function", "heatmap_key(float8, float8)") {
            _ = try PostgresImport.run(points: Self.points, into: "parks", connection: conninfo, mode: .create)
        }
        #expect(try connection.execute("SELECT heatmap_key(1, 2)").text(0, 0) == "7", "the user's function is kept")
        // A plain table of the user's is refused by the source too (it makes the position functions).
        try connection.execute("CREATE TABLE plain_points (lat float8, lng float8)")
        Self.expectRefused("function", "heatmap_key(float8, float8)") {
            _ = try PostgresSource(connection: conninfo, table: PostgresTable(name: "plain_points"))
        }
        try connection.execute("DROP FUNCTION heatmap_key(float8, float8)")
        // A user's trigger named T_log_insert on a table import made: --append refuses it.
        _ = try PostgresImport.run(points: Self.points, into: "parks", connection: conninfo, mode: .create)
        try connection.execute(
            "CREATE FUNCTION audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$")
        try connection.execute("DROP TRIGGER parks_log_insert ON parks")
        try connection.execute(
            "CREATE TRIGGER parks_log_insert AFTER INSERT ON parks FOR EACH STATEMENT EXECUTE FUNCTION audit()")
        Self.expectRefused("trigger", "\"parks_log_insert\" on \"parks\"", found: "a trigger calling audit()") {
            _ = try PostgresImport.run(points: Self.points, into: "parks", connection: conninfo, mode: .append)
        }
        #expect(try Self.rows("parks", on: connection) == Self.points.count, "nothing appended")
        // A user's heatmap_maxima is neither read nor written: M(z) is searched, one line says why.
        try connection.execute("DROP TABLE heatmap_maxima")
        try connection.execute("CREATE TABLE heatmap_maxima (note text)")
        try connection.execute("INSERT INTO heatmap_maxima VALUES ('mine')")
        let source = try PostgresSource(connection: ConnectionString(url), table: PostgresTable(name: "parks"))
        let said = Mutex<[String]>([])
        source.onMaximumStoreNotice { line in said.withLock { $0.append(line) } }
        _ = try HeatmapTileLayer(source: source).normalization(zoom: 5)
        #expect(
            said.withLock { $0.contains { $0.contains("a table heatmap_maxima exists that HeatmapKit did not make") } })
        #expect(try connection.execute("SELECT count(*), min(note) FROM heatmap_maxima").text(0, 1) == "mine")
    }

    @Test("--replace drops only a table import made: a user's table of the same name is refused, kept")
    func replaceOnlyOurs() throws {
        let (url, connection) = try Self.database("names_replace")
        let conninfo = ConnectionString(url)
        try connection.execute("CREATE TABLE stations (lat float8, lng float8, weight real, name text)")
        try connection.execute("INSERT INTO stations VALUES (1, 2, 3, 'mine')")
        Self.expectRefused("table", "\"stations\"") {
            _ = try PostgresImport.run(points: Self.points, into: "stations", connection: conninfo, mode: .replace)
        }
        #expect(try connection.execute("SELECT name FROM stations").text(0, 0) == "mine")
        // Its shape exactly, without import's triggers, is still not import's.
        try connection.execute("DROP TABLE stations")
        try connection.execute(
            "CREATE TABLE stations (lat float8, lng float8, weight real, x int8, y int8, key int8)")
        Self.expectRefused("table", "\"stations\"") {
            _ = try PostgresImport.run(points: Self.points, into: "stations", connection: conninfo, mode: .replace)
        }
        try connection.execute("DROP TABLE stations")
        _ = try PostgresImport.run(points: Self.points, into: "stations", connection: conninfo, mode: .create)
        _ = try PostgresImport.run(points: Self.points, into: "stations", connection: conninfo, mode: .replace)
        #expect(try Self.rows("stations", on: connection) == Self.points.count)
    }

    @Test("a table made before the marks, unmarked, is recognised: --replace and --append work and mark it")
    func earlierVersion() throws {
        let (url, connection) = try Self.database("names_legacy")
        let conninfo = ConnectionString(url)
        _ = try PostgresImport.run(points: Self.points, into: "older", connection: conninfo, mode: .create)
        // Every mark taken off, as an earlier version left it.
        try connection.execute("DELETE FROM pg_description WHERE description LIKE 'heatmapkit%'")
        #expect(
            try connection.execute("SELECT count(*) FROM pg_description WHERE description LIKE 'heatmapkit%'").text(
                0, 0) == "0")
        _ = try PostgresImport.run(points: Self.points, into: "older", connection: conninfo, mode: .append)
        #expect(try Self.rows("older", on: connection) == 2 * Self.points.count)
        _ = try PostgresImport.run(points: Self.points, into: "older", connection: conninfo, mode: .replace)
        #expect(try Self.rows("older", on: connection) == Self.points.count)
        #expect(
            try connection.execute("SELECT obj_description('older_cells'::regclass, 'pg_class')").text(0, 0)?
                .hasPrefix("heatmapkit") == true)
    }

    @Test(
        "sharded: a user's foreign server T_shard1 on the coordinator, or T_cells on a shard, stops it before any write"
    )
    func sharded() throws {
        let cluster = try ShardingTests.require()
        let coordinator = try PostgresConnection(cluster.coordinator.conninfo)
        let shards = cluster.shards.map(\.conninfo)
        try TestCluster.createExtension("postgres_fdw", on: coordinator)
        try coordinator.execute("DROP SERVER IF EXISTS names_sharded_shard1 CASCADE")
        try coordinator.execute(
            "CREATE SERVER names_sharded_shard1 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'elsewhere')")
        try coordinator.execute("CREATE FOREIGN TABLE users_remote (a int) SERVER names_sharded_shard1")
        Self.expectRefused("foreign server", "\"names_sharded_shard1\"") {
            _ = try PostgresShardedImport.run(
                points: Self.points, into: "names_sharded", coordinator: cluster.coordinator.conninfo, shards: shards,
                mode: .replace)
        }
        #expect(
            try coordinator.execute("SELECT count(*) FROM pg_foreign_table WHERE ftrelid = 'users_remote'::regclass")
                .text(0, 0) == "1", "the user's server and its table are kept")
        try coordinator.execute("DROP SERVER names_sharded_shard1 CASCADE")
        let shard = try PostgresConnection(shards[1])
        try shard.execute("DROP TABLE IF EXISTS names_sharded_cells")
        try shard.execute("CREATE TABLE names_sharded_cells (id int)")
        Self.expectRefused("table", "\"names_sharded_cells\" (on shard") {
            _ = try PostgresShardedImport.run(
                points: Self.points, into: "names_sharded", coordinator: cluster.coordinator.conninfo, shards: shards,
                mode: .create)
        }
        for connection in [coordinator, try PostgresConnection(shards[0]), shard] {
            #expect(try Self.rows("names_sharded", on: connection) == nil, "nothing made on any server")
        }
        try shard.execute("DROP TABLE names_sharded_cells")
        _ = try PostgresShardedImport.run(
            points: Self.points, into: "names_sharded", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .create)
        let servers = try coordinator.execute(
            "SELECT count(*) FROM pg_foreign_server WHERE srvname LIKE 'names_sharded_shard%' "
                + "AND obj_description(oid, 'pg_foreign_server') LIKE 'heatmapkit%'")
        #expect(servers.text(0, 0) == "2", "the servers are marked")
    }

    @Test("attach: a user's view under the name of a shard's log view stops it before any write on any server")
    func attach() throws {
        let cluster = try ShardingTests.require()
        try cluster.build(table: "names_attach", points: Self.points)
        let coordinator = try PostgresConnection(cluster.coordinator.conninfo)
        let first = try PostgresConnection(cluster.shards[0].conninfo)
        let second = try PostgresConnection(cluster.shards[1].conninfo)
        try second.execute("CREATE VIEW names_attach_2_heatmap_log AS SELECT 1 AS one")
        Self.expectRefused("view", "names_attach_2_heatmap_log\" (on the shard of partition public.names_attach_2)") {
            _ = try PostgresAttach.run(table: "names_attach", connection: cluster.coordinator.conninfo)
        }
        let run = try HeatmapCommand.run([
            "import", "--postgres", cluster.coordinator.url, "--table", "names_attach", "--attach",
        ])
        #expect(run.status == 1 && run.standardError.contains("names_attach_2_heatmap_log"), "\(run.standardError)")
        // Nothing written: no log trigger on either shard's table, none gathering on the coordinator.
        for (shard, table) in [(first, "names_attach_1"), (second, "names_attach_2")] {
            #expect(
                try shard.execute(
                    "SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal", [table]
                ).text(0, 0) == "0", "\(table)")
        }
        #expect(
            try coordinator.execute(
                "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'names_attach'::regclass AND tgname LIKE '%log_shards'"
            ).text(0, 0) == "0")
        #expect(try second.execute("SELECT one FROM names_attach_2_heatmap_log").text(0, 0) == "1", "the view is kept")
        try second.execute("DROP VIEW names_attach_2_heatmap_log")
        let summary = try PostgresAttach.run(table: "names_attach", connection: cluster.coordinator.conninfo)
        #expect(summary.shards == 2)
        let marked = try second.execute(
            "SELECT obj_description('names_attach_2_heatmap_log'::regclass, 'pg_class')"
        ).text(0, 0)
        #expect(marked?.hasPrefix("heatmapkit") == true, "\(marked ?? "")")
    }
}
