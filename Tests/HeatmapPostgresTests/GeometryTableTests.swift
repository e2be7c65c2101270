import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// A user's table of PostGIS point geometries (`--geometry`), against the same points in memory.
@Suite(.serialized, .needsPostgres) struct GeometryTableTests {
    /// The shared cluster with PostGIS created in its database (tests that call it carry
    /// ``Testing/Trait/needsPostGIS``); throws when PostgreSQL or PostGIS is not installed.
    static func postgis() throws -> (TestCluster, PostgresConnection) {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let available = try connection.execute("SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'")
        try #require(
            available.text(0, 0) == "1",
            "no postgis extension for this PostgreSQL (apt-get install postgresql-15-postgis-3)")
        try connection.execute("BEGIN")
        try connection.execute("SELECT pg_advisory_xact_lock(4242)")
        try connection.execute("CREATE EXTENSION IF NOT EXISTS postgis")
        try connection.execute("COMMIT")
        return (cluster, connection)
    }

    /// Makes `name` with geometry column `geom` (declared `type`) and weight `w`, holding `points`.
    static func makeTable(_ name: String, type: String, points: [WeightedLatLng], on connection: PostgresConnection)
        throws
    {
        try connection.execute("DROP TABLE IF EXISTS \(name)")
        try connection.execute("CREATE TABLE \(name) (id serial, geom \(type), w float8)")
        for chunk in stride(from: 0, to: points.count, by: 100) {
            var values: [String] = []
            var parameters: [String?] = []
            for point in points[chunk..<min(chunk + 100, points.count)] {
                let n = parameters.count
                values.append(
                    "(ST_SetSRID(ST_MakePoint($\(n + 1)::float8, $\(n + 2)::float8), 4326), $\(n + 3)::float8)")
                parameters += ["\(point.coordinate.longitude)", "\(point.coordinate.latitude)", "\(point.intensity)"]
            }
            try connection.execute(
                "INSERT INTO \(name) (geom, w) VALUES " + values.joined(separator: ", "), parameters)
        }
    }

    @Test(
        "a geometry(Point, 4326) column draws the tiles of the points in memory: z0, antimeridian, scales 1-3",
        .needsPostGIS)
    func pointColumn() throws {
        let (cluster, connection) = try Self.postgis()
        let points = PostgresSourceTests.points
        try Self.makeTable("geo_points", type: "geometry(Point, 4326)", points: points, on: connection)
        let table = PostgresTable(name: "geo_points", weightColumn: "w", geometryColumn: "geom")
        let slow = try PostgresSource(connection: cluster.conninfo, table: table)
        let statement = try #require(slow.suggestedIndex)
        #expect(
            statement
                == "CREATE INDEX ON \"geo_points\" (heatmap_key(heatmap_point_lat(\"geom\"), heatmap_point_lng(\"geom\")));"
        )
        try PostgresSourceTests.expectSameTiles(slow, as: points, scales: [1])
        try connection.execute(statement)
        let fast = try PostgresSource(connection: cluster.conninfo, table: table)
        #expect(fast.suggestedIndex == nil)
        try PostgresSourceTests.expectSameTiles(fast, as: points, scales: [2, 3])
        // The index is the one a tile's key ranges use.
        try connection.execute("ANALYZE geo_points")
        try connection.execute("SET enable_seqscan = off")
        defer { _ = try? connection.execute("RESET enable_seqscan") }
        let plan = try connection.execute(
            "EXPLAIN SELECT count(*) FROM geo_points WHERE \(fast.layout.key) BETWEEN 0::int8 AND 1000000::int8")
        let text = (0..<plan.rowCount).compactMap { plan.text($0, 0) }.joined(separator: "\n")
        #expect(text.contains("geo_points_heatmap_key_idx"), "\(text)")
    }

    @Test(
        "NULL, other SRIDs, non-points, empty points and out-of-range points draw nothing and are counted",
        .needsPostGIS)
    func skippedRows() throws {
        let (cluster, connection) = try Self.postgis()
        let points = Array(PostgresSourceTests.points.prefix(80))
        try Self.makeTable("geo_mixed", type: "geometry", points: points, on: connection)
        try connection.execute(
            """
            INSERT INTO geo_mixed (geom, w) VALUES (NULL, 1), ('SRID=3857;POINT(16137000 -4553000)', 1), \
            ('SRID=4326;LINESTRING(144 -37, 145 -38)', 1), ('SRID=4326;POINT EMPTY', 1), \
            ('SRID=4326;POINT(144.9 95)', 1), ('SRID=4326;MULTIPOINT((144.9 -37.8))', 1)
            """)
        let table = PostgresTable(name: "geo_mixed", weightColumn: "w", geometryColumn: "geom")
        let source = try PostgresSource(connection: cluster.conninfo, table: table)
        let summary = try source.summary()
        #expect(summary.rows == points.count)
        #expect(summary.unusable == 6)
        #expect(
            summary.geometry == PostgresGeometryCounts(null: 1, otherSRID: 1, notPoint: 2, empty: 1, outOfRange: 1))
        try PostgresSourceTests.expectSameTiles(source, as: points, scales: [1])
    }

    @Test(
        "a column of another SRID, of polygons, or not a geometry is an error naming it; so is no PostGIS",
        .needsPostGIS)
    func badColumns() throws {
        let (cluster, connection) = try Self.postgis()
        try connection.execute("DROP TABLE IF EXISTS geo_bad")
        try connection.execute(
            "CREATE TABLE geo_bad (merc geometry(Point, 3857), area geometry(Polygon, 4326), label text, p point)")
        for column in ["merc", "area", "label", "p"] {
            let table = PostgresTable(name: "geo_bad", geometryColumn: column)
            do {
                _ = try PostgresSource(connection: cluster.conninfo, table: table)
                Issue.record("column \(column) was accepted")
            } catch {
                guard case .geometryUnusable(let name, let named, let reason) = error else {
                    Issue.record("column \(column): \(error)")
                    continue
                }
                #expect(name == "geo_bad" && named == column)
                #expect(error.description.hasPrefix("table geo_bad, column \(column): it is"), "\(error)")
                if column == "merc" { #expect(reason.contains("SRID 3857, not 4326"), "\(reason)") }
                if column == "area" { #expect(reason.contains("not points"), "\(reason)") }
                if column == "label" { #expect(reason.contains("not a PostGIS geometry"), "\(reason)") }
            }
        }
        #expect(throws: PostgresError.columnMissing(table: "geo_bad", column: "nowhere")) {
            try PostgresSource(
                connection: cluster.conninfo, table: PostgresTable(name: "geo_bad", geometryColumn: "nowhere"))
        }
    }
}
