import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Time windows and categories pushed down to a table (issue 28): the tiles, intensities and
/// M(z) of a filtered source equal those of exactly the points a brute-force filter keeps, in
/// memory, for every kind of time column and both kinds of category column; the values reach
/// PostgreSQL only as bound parameters.
@Suite(.serialized, .needsPostgres) struct FilteredTableTests {
    /// A point with its time (Unix seconds) and categories.
    struct Row {
        var point: WeightedLatLng
        var second: Int64
        var kind: String
        var number: Int
    }

    /// The test points, each with a time over about a year (hours apart, some on the same
    /// second), a text category and an integer one.
    static let rows: [Row] = PostgresSourceTests.points.enumerated().map { i, point in
        let second = 1_704_067_200 + Int64(i / 2) * 86_400 + Int64(i % 7) * 3_600
        let kinds = ["burglary", "theft", "arson", "x'); DROP TABLE filtered_plain; --"]
        return Row(point: point, second: second, kind: kinds[i % 4], number: i % 5 - 1)
    }

    /// Makes `filtered_plain`: the rows with their time as `timestamptz`, `timestamp`, `date`
    /// and `int8` seconds, categories as text and `int4`, and the key index.
    static func makeTable(_ name: String = "filtered_plain", on connection: PostgresConnection) throws {
        try connection.execute("DROP TABLE IF EXISTS \(name)")
        try connection.execute(
            """
            CREATE TABLE \(name) (lat float8, lng float8, weight float8, t timestamptz, w timestamp, \
            d date, s int8, kind text, n int4, label bytea)
            """)
        for chunk in stride(from: 0, to: rows.count, by: 100) {
            var values: [String] = []
            var parameters: [String?] = []
            for row in rows[chunk..<min(chunk + 100, rows.count)] {
                let n = parameters.count
                values.append(
                    "($\(n + 1)::float8, $\(n + 2)::float8, $\(n + 3)::float8, to_timestamp($\(n + 4)::int8), "
                        + "to_timestamp($\(n + 4)::int8) AT TIME ZONE 'UTC', "
                        + "(to_timestamp($\(n + 4)::int8) AT TIME ZONE 'UTC')::date, $\(n + 4)::int8, $\(n + 5), "
                        + "$\(n + 6)::int4, NULL)")
                parameters += [
                    "\(row.point.coordinate.latitude)", "\(row.point.coordinate.longitude)",
                    "\(Float(row.point.intensity))", "\(row.second)", row.kind, "\(row.number)",
                ]
            }
            try connection.execute("INSERT INTO \(name) VALUES " + values.joined(separator: ", "), parameters)
        }
        try connection.execute("CREATE INDEX ON \(name) (heatmap_key(lat::float8, lng::float8))")
        try connection.execute("CREATE INDEX ON \(name) (t)")
    }

    /// The points of `rows` whose time (as `second` gives it) lies in `window` and whose
    /// categories `keep` keeps: the brute force.
    static func kept(
        window: TimeWindow, second: (Row) -> Int64 = { $0.second }, keep: (Row) -> Bool = { _ in true }
    ) -> [WeightedLatLng] {
        rows.filter { window.contains(second($0)) && keep($0) }.map(\.point)
    }

    static func table(time: String?, categories: [String] = []) -> PostgresTable {
        var table = PostgresTable(name: "filtered_plain")
        table.timeColumn = time
        table.categoryColumns = categories
        return table
    }

    @Test("timestamptz, timestamp, date and Unix seconds: a window's tiles and M(z) are its points' alone")
    func timeKinds() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        try Self.makeTable(on: connection)
        let window = try TimeWindow(parsing: "2024-02-10T05:00:00Z/2024-07-01")
        for column in ["t", "w", "s"] {
            let source = try PostgresSource(connection: cluster.conninfo, table: Self.table(time: column))
            let filtered = try source.filtered(window: window, categories: [])
            let points = Self.kept(window: window)
            #expect(points.count > 10 && points.count < Self.rows.count - 10)
            try PostgresSourceTests.expectSameTiles(filtered, as: points, scales: [1])
        }
        // A date is its midnight in UTC, as in a file.
        let dates = try PostgresSource(connection: cluster.conninfo, table: Self.table(time: "d"))
        for text in ["2024-02-10T05:00:00Z/2024-07-01T00:00:01Z", "../2024-03-01", "2024-03-01T00:00:00Z"] {
            let window = try TimeWindow(parsing: text)
            let points = Self.kept(window: window, second: { $0.second - $0.second % 86_400 })
            try PostgresSourceTests.expectSameTiles(
                try dates.filtered(window: window, categories: []), as: points, scales: [1])
        }
    }

    @Test("text and integer categories with a window: exactly the rows kept; a hostile value is only a value")
    func categories() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        try Self.makeTable(on: connection)
        let source = try PostgresSource(
            connection: cluster.conninfo, table: Self.table(time: "t", categories: ["kind", "n"]))
        let facets = try source.filterFacets()
        let seconds = Self.rows.map(\.second)
        #expect(facets.timeRange == seconds.min()!...seconds.max()!)
        #expect(facets.dictionaries.map(\.column) == ["kind", "n"])
        let hostile = "x'); DROP TABLE filtered_plain; --"
        #expect(facets.dictionaries[0].mostFrequent().first { $0.value == hostile }?.count == Self.rows.count / 4)
        let window = try TimeWindow(parsing: "2024-03-01/..")
        let filtered = try source.filtered(
            window: window,
            categories: [
                CategorySelection(column: "kind", values: ["theft", hostile]),
                CategorySelection(column: "n", values: ["-1", "2"]),
            ])
        let points = Self.kept(
            window: window, keep: { ["theft", hostile].contains($0.kind) && [-1, 2].contains($0.number) })
        #expect(points.count > 5)
        try PostgresSourceTests.expectSameTiles(filtered, as: points, scales: [1, 2])
        // The statement holds neither the value nor the window: both are bound parameters.
        let query = WeightQuery.covering(
            PixelRect(x: 0, y: 0, width: 512, height: 512), space: try PixelSpace(zoom: 0, scale: 1))[0]
        let (sql, parameters) = try PostgresConnection.binding(filtered.statement(for: query).0, [])
        #expect(!sql.contains("DROP") && !sql.contains("theft") && !sql.contains("170"))
        #expect(parameters.contains("{\"theft\",\"x'); DROP TABLE filtered_plain; --\"}"))
        #expect(try connection.execute("SELECT count(*) FROM filtered_plain").text(0, 0) == "\(Self.rows.count)")
        // A value no row holds keeps nothing: every tile is empty.
        let none = try source.filtered(window: .all, categories: [CategorySelection(column: "kind", values: ["fraud"])])
        try PostgresSourceTests.expectSameTiles(none, as: [], scales: [1])
    }

    @Test("an imported table's filtered tiles leave the summaries: every zoom from the rows kept")
    func importedTable() throws {
        let cluster = try TestCluster.require()
        let points = Self.rows.map(\.point)
        _ = try PostgresImport.run(
            points: points, into: "filtered_imported", connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        // Each row's time and kind from its key, as the brute force computes them.
        try connection.execute(
            """
            ALTER TABLE filtered_imported ADD COLUMN t timestamptz, ADD COLUMN kind text;
            """)
        try connection.execute(
            """
            UPDATE filtered_imported SET t = to_timestamp(1704067200 + abs(key % 1000) * 3600), \
            kind = (ARRAY['a', 'b', 'c'])[abs(key % 3) + 1]
            """)
        var table = PostgresTable(name: "filtered_imported")
        table.timeColumn = "t"
        table.categoryColumns = ["kind"]
        let source = try PostgresSource(connection: cluster.conninfo, table: table)
        #expect(source.layout.summaries != nil)
        func key(_ point: WeightedLatLng) -> Int64 {
            let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
            let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
            return Int64(bitPattern: KeyRanges.key(x: x, y: y))
        }
        let window = try TimeWindow(parsing: "2024-01-10/2024-02-01")
        let kept = points.filter {
            let k = key($0)
            return window.contains(1_704_067_200 + abs(k % 1000) * 3600)
                && ["a", "c"][...].contains(["a", "b", "c"][Int(abs(k % 3))])
        }
        #expect(kept.count > 5 && kept.count < points.count - 5)
        let filtered = try source.filtered(
            window: window, categories: [CategorySelection(column: "kind", values: ["a", "c"])])
        #expect(filtered.layout.summaries == nil)
        #expect(!filtered.keepsMaxima)
        try PostgresSourceTests.expectSameTiles(filtered, as: kept, scales: [1])
    }

    @Test("a column of another type, or none, is an error naming the column and its type")
    func wrongColumns() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        try Self.makeTable(on: connection)
        func message(_ table: PostgresTable) -> String {
            do {
                _ = try PostgresSource(connection: cluster.conninfo, table: table)
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message(Self.table(time: "kind")).contains("column kind: --time needs a timestamptz"))
        #expect(message(Self.table(time: "kind")).contains("it is text"))
        #expect(message(Self.table(time: nil, categories: ["label"])).contains("it is bytea"))
        #expect(message(Self.table(time: "nosuch")).contains("column nosuch: the table has no such column"))
        let source = try PostgresSource(
            connection: cluster.conninfo, table: Self.table(time: nil, categories: ["kind"]))
        #expect(throws: PostgresError.self) {
            try source.filtered(window: TimeWindow(start: 0, end: nil), categories: [])
        }
        #expect(throws: PostgresError.self) {
            try source.filtered(window: .all, categories: [CategorySelection(column: "n", values: ["1"])])
        }
    }
}
