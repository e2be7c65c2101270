import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// The summaries of an imported table stay exact, and in use, through the user's own writes.
@Suite(.serialized, .needsPostgres) struct LiveSummaryTests {
    /// The rows of `table` as points.
    static func rows(of table: String, on connection: PostgresConnection) throws -> [WeightedLatLng] {
        let rows = try connection.execute("SELECT lat, lng, weight FROM \(table)")
        return (0..<rows.rowCount).compactMap { row in
            guard let lat = rows.text(row, 0).flatMap(Double.init), let lng = rows.text(row, 1).flatMap(Double.init),
                let weight = rows.text(row, 2).flatMap(Double.init)
            else { return nil }
            return WeightedLatLng(coordinate: Coordinate(latitude: lat, longitude: lng), intensity: weight)
        }
    }

    /// The cells that differ between the summaries and a rebuild from the rows (0 when exact).
    static func wrongCells(_ table: String, on connection: PostgresConnection) throws -> String? {
        let key = "((key >> (2 * l)) & ((1::int8 << (64 - 2 * l)) - 1))"
        return try connection.execute(
            """
            WITH e AS (SELECT l AS level, \(key) AS key, x >> l AS x, y >> l AS y, sum(weight::float8) AS weight, \
            count(*) AS rows FROM \(table), generate_series((SELECT finest FROM heatmap_summaries \
            WHERE table_name = 'public.\(table)'), 24) l WHERE weight > 0 GROUP BY 1, 2, 3, 4)
            SELECT count(*) FROM e FULL JOIN \(table)_cells c ON c.level = e.level AND c.key = e.key \
            WHERE c.level IS NULL OR e.level IS NULL OR c.x <> e.x OR c.y <> e.y OR c.rows <> e.rows \
            OR abs(c.weight - e.weight) > 1e-9 * e.weight
            """
        ).text(0, 0)
    }

    @Test("after INSERT, UPDATE, DELETE and TRUNCATE the summaries equal a rebuild, stay in use, and tiles are exact")
    func writes() throws {
        let (cluster, connection) = try TestCluster.imported("livesum", points: PostgresSourceTests.points)
        let finest = try #require(
            try connection.execute("SELECT finest FROM heatmap_summaries WHERE table_name = 'public.livesum'")
                .text(0, 0))
        #expect(finest != "25", "the import kept summaries")
        let fresh = "SELECT \(CellSummaries.freshCondition(parameter: 1, level: 2))"
        func inUse() throws -> Bool { try connection.execute(fresh, ["public.livesum", finest]).text(0, 0) == "t" }
        #expect(try inUse())
        try connection.execute(
            """
            INSERT INTO livesum (lat, lng, weight) VALUES (-37.8, 144.9, 7), (-37.81, 144.91, 2), \
            (-16.0, 179.99, 3), (-16.0, -179.99, 4), (0, 0, 0)
            """)
        #expect(try inUse(), "after an INSERT")
        #expect(try Self.wrongCells("livesum", on: connection) == "0")
        try connection.execute("UPDATE livesum SET weight = weight * 2 WHERE lng > 145")
        try connection.execute("UPDATE livesum SET lat = lat + 0.5, lng = lng - 1 WHERE lng < -179")
        #expect(try inUse(), "after UPDATEs")
        #expect(try Self.wrongCells("livesum", on: connection) == "0")
        try connection.execute("DELETE FROM livesum WHERE lat < -38 OR weight = 7")
        try connection.execute("DELETE FROM livesum WHERE lat > 80")
        #expect(try inUse(), "after DELETEs")
        #expect(try Self.wrongCells("livesum", on: connection) == "0")
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "livesum"))
        #expect(source.layout.summaries != nil)
        try PostgresSourceTests.expectSameTiles(
            source, as: try Self.rows(of: "livesum", on: connection), scales: [1])
        try connection.execute("TRUNCATE livesum")
        #expect(try inUse(), "after TRUNCATE")
        #expect(try connection.execute("SELECT count(*) FROM livesum_cells").text(0, 0) == "0")
    }
}
