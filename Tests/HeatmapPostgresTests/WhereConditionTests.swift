import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// `--where`: PostgreSQL parses the text, as the body of a function of the row, so whatever it
/// holds the tile statements keep their own conditions; a text that is not one condition on
/// the columns is refused at the start with PostgreSQL's message, quoting it (never connection
/// detail).
@Suite(.serialized, .needsPostgres) struct WhereConditionTests {
    /// The pixel weights of `space`'s `columns` × `rows` as `source`'s statement answers them
    /// (on a connection of its pool, which has the condition's function).
    static func pixels(of source: PostgresSource, space: PixelSpace, columns: Range<Int>, rows: Range<Int>) throws
        -> [[Int64]: Double]
    {
        let (sql, parameters) = source.statement(space: space, columns: columns, rows: rows)
        let result = try source.pool.with { (connection) throws(PostgresError) in
            try connection.execute(sql, parameters, binary: true)
        }
        var pixels: [[Int64]: Double] = [:]
        for row in 0..<result.rowCount {
            let key = [try #require(result.int64(row, 0)), try #require(result.int64(row, 1))]
            pixels[key, default: 0] += try #require(result.double(row, 2))
        }
        return pixels
    }

    /// Imports `points` into `table` afresh.
    static func table(_ table: String, on cluster: TestCluster) throws {
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: table, connection: cluster.conninfo, mode: .replace)
    }

    @Test("a text that is not one condition on the columns is refused at the start, quoted, PostgreSQL's message")
    func refused() throws {
        let cluster = try TestCluster.require()
        try Self.table("where_checked", on: cluster)
        let cases: [(String, String)] = [
            ("no_such > 0", "column \"no_such\" does not exist"),
            ("1", "argument of WHERE must be type boolean, not type integer"),
            ("lat >", "syntax error"),
            ("lat > 0; DROP TABLE where_checked", "syntax error"),
            ("true); DELETE FROM where_checked; SELECT (true", "DELETE is not allowed in a non-volatile function"),
            ("where_checked.weight > 0", "missing FROM-clause entry for table \"where_checked\""),
        ]
        for (filter, expected) in cases {
            do {
                _ = try PostgresSource(
                    connection: cluster.conninfo, table: PostgresTable(name: "where_checked", filter: filter))
                Issue.record("\(filter) was accepted")
            } catch {
                let text = error.description
                #expect(text.hasPrefix("--where \"\(filter)\" is not a valid SQL condition: "), "\(text)")
                #expect(text.contains(expected), "\(text)")
                for detail in ["127.0.0.1", String(cluster.port), TestCluster.password, "LINE", "heatmap_where"] {
                    #expect(!text.contains(detail), "\(text)")
                }
            }
        }
        let count = try PostgresConnection(cluster.conninfo).execute("SELECT count(*) FROM where_checked")
        #expect(count.text(0, 0) == "\(LiveDataTests.points.count)", "nothing was deleted")
        let source = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "where_checked", filter: "(weight > 0)"))
        #expect(try source.summary().rows == LiveDataTests.points.count)
    }

    @Test("texts that left the statement's (…) before (-- ended by \\r, $€$, a parenthesis) draw the tile's rows only")
    func contained() throws {
        let cluster = try TestCluster.require()
        try Self.table("where_contained", on: cluster)
        let all = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "where_contained"))
        let space = try PixelSpace(zoom: 7, scale: 1)
        let columns = 29440..<29696
        let rows = 20000..<20224
        let whole = try Self.pixels(of: all, space: space, columns: columns, rows: rows)
        #expect(!whole.isEmpty)
        // Each is true for every row as PostgreSQL reads it, so the tile is the whole tile's.
        for filter in [
            "weight > 1e9 --\r) OR (true --\n", "true) OR (1=1", "weight > 1e9 --\r) OR (true",
            "$€$ ) $€$ = $€$ ) $€$ OR (true)", "weight > 1e9 /* ) OR (true */ OR true",
            "$heatmap_where$ $heatmap_where$ = '' OR true", "E'\\')' = ')' OR true",
        ] {
            let source = try PostgresSource(
                connection: cluster.conninfo, table: PostgresTable(name: "where_contained", filter: filter))
            let drawn = try Self.pixels(of: source, space: space, columns: columns, rows: rows)
            #expect(drawn == whole, "\(filter.debugDescription)")
            let tile = try HeatmapTileLayer(source: source).tileFor(x: 115, y: 78, zoom: 7)
            #expect(tile == (try HeatmapTileLayer(source: all).tileFor(x: 115, y: 78, zoom: 7)), "\(filter)")
        }
    }

    @Test("the condition is inlined: the tile statement's plan holds it as written, no function call")
    func inlined() throws {
        let cluster = try TestCluster.require()
        try Self.table("where_inlined", on: cluster)
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("ALTER TABLE where_inlined ADD COLUMN IF NOT EXISTS kind text DEFAULT 'a'")
        try connection.execute("CREATE INDEX IF NOT EXISTS where_inlined_kind ON where_inlined (kind)")
        let source = try PostgresSource(
            connection: cluster.conninfo,
            table: PostgresTable(name: "where_inlined", filter: "weight > 2 AND kind = 'a' AND now() > '2000-01-01'"))
        let sql = source.statement(
            space: try PixelSpace(zoom: 7, scale: 1), columns: 29440..<29696, rows: 20000..<20224)
        try source.pool.with { (connection) throws(PostgresError) in
            let plan = try connection.execute("EXPLAIN (VERBOSE) " + sql.0, sql.1)
            let text = (0..<plan.rowCount).compactMap { plan.text($0, 0) }.joined(separator: "\n")
            #expect(!text.contains("heatmap_where"), "\(text)")
            #expect(text.contains("weight > '2'"), "\(text)")
            #expect(text.contains("kind = 'a'"), "\(text)")
        }
        // A plain table's row condition on an indexed column uses that index.
        try connection.execute("DROP TABLE IF EXISTS where_plain")
        try connection.execute(
            "CREATE TABLE where_plain AS SELECT g::float8 / 1000 AS lat, 1::float8 AS lng, g AS id FROM generate_series(1, 20000) g"
        )
        try connection.execute("CREATE INDEX ON where_plain (id)")
        try connection.execute("ANALYZE where_plain")
        let plain = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "where_plain", filter: "id BETWEEN 10 AND 20"))
        try plain.pool.with { (connection) throws(PostgresError) in
            let plan = try connection.execute(
                "EXPLAIN SELECT count(*) FROM where_plain WHERE " + (plain.layout.filter ?? "true"))
            let text = (0..<plan.rowCount).compactMap { plan.text($0, 0) }.joined(separator: "\n")
            #expect(text.contains("Index") && text.contains("where_plain_id_idx"), "\(text)")
            #expect(!text.contains("heatmap_where"), "\(text)")
        }
        #expect(try plain.summary().rows == 11)
    }

    @Test("heatmap info --where \"lat >\" exits 1 saying the --where text is not a valid SQL condition")
    func command() throws {
        let cluster = try TestCluster.require()
        try Self.table("where_command", on: cluster)
        let run = try HeatmapCommand.run([
            "info", "--postgres", cluster.url, "--table", "where_command", "--where", "lat >",
        ])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("--where \"lat >\" is not a valid SQL condition: syntax error"))
        #expect(!run.standardError.contains(TestCluster.password))
        let drawn = try HeatmapCommand.run([
            "info", "--postgres", cluster.url, "--table", "where_command", "--where",
            "weight > 1e9 --\r) OR (true --\n",
        ])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        #expect(drawn.standardOutput.contains("\(LiveDataTests.points.count) rows drawn"), "\(drawn.standardOutput)")
    }

    @Test("the dollar tag is one the text does not hold")
    func dollarTag() {
        #expect(SQLCondition.dollarTag(absentFrom: "a = 1") == "$heatmap_where$")
        #expect(SQLCondition.dollarTag(absentFrom: "$heatmap_where$") == "$heatmap_where_1$")
        #expect(SQLCondition.dollarTag(absentFrom: "$heatmap_where$ $heatmap_where_1$") == "$heatmap_where_2$")
    }
}
