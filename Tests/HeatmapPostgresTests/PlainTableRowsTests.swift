import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// A user's plain table with rows no reader would accept (latitude beyond ±90, NaN, infinite
/// longitudes, NULLs, bad weights): they are left out and counted, and the tiles are those of
/// the good rows alone, whether or not the table has the key index.
@Suite(.serialized, .needsPostgres) struct PlainTableRowsTests {
    /// The rows that must draw nothing: (lat, lng, weight) as SQL literals.
    static let unusable: [(String, String, String)] = [
        ("91", "144.9", "1"), ("-91", "144.9", "1"), ("'NaN'", "144.9", "1"), ("-37.8", "'NaN'", "1"),
        ("-37.8", "'Infinity'", "1"), ("-37.8", "'-Infinity'", "1"), ("'Infinity'", "144.9", "1"),
        ("NULL", "144.9", "1"), ("-37.8", "NULL", "1"), ("-37.8", "144.9", "NULL"), ("-37.8", "144.9", "'NaN'"),
        ("-37.8", "144.9", "-1"), ("-37.8", "144.9", "'Infinity'"),
    ]

    /// Makes the table `name` holding `points` and the unusable rows.
    static func makeTable(_ name: String, points: [WeightedLatLng], on connection: PostgresConnection) throws {
        try connection.execute("DROP TABLE IF EXISTS \(name)")
        try connection.execute("CREATE TABLE \(name) (lat float8, lng float8, weight float8)")
        for chunk in stride(from: 0, to: points.count, by: 100) {
            var values: [String] = []
            var parameters: [String?] = []
            for point in points[chunk..<min(chunk + 100, points.count)] {
                let n = parameters.count
                values.append("($\(n + 1)::float8, $\(n + 2)::float8, $\(n + 3)::float8)")
                parameters += [
                    "\(point.coordinate.latitude)", "\(point.coordinate.longitude)", "\(Float(point.intensity))",
                ]
            }
            try connection.execute("INSERT INTO \(name) VALUES " + values.joined(separator: ", "), parameters)
        }
        let bad = Self.unusable.map { "(\($0.0), \($0.1), \($0.2))" }.joined(separator: ", ")
        try connection.execute("INSERT INTO \(name) VALUES \(bad)")
    }

    @Test("latitudes beyond ±90, NaN and infinite positions draw nothing: the tiles and M(z) of the good rows")
    func outOfRangePositions() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let points = PostgresSourceTests.points
        try Self.makeTable("plain_unusable", points: points, on: connection)
        let table = PostgresTable(name: "plain_unusable")
        let slow = try PostgresSource(connection: cluster.conninfo, table: table)
        let summary = try slow.summary()
        #expect(summary.rows == points.count)
        #expect(summary.unusable == Self.unusable.count)
        try PostgresSourceTests.expectSameTiles(slow, as: points, scales: [1])
        let statement = try #require(slow.suggestedIndex)
        try connection.execute(statement)
        let fast = try PostgresSource(connection: cluster.conninfo, table: table)
        #expect(fast.suggestedIndex == nil)
        #expect(try fast.summary().unusable == Self.unusable.count)
        try PostgresSourceTests.expectSameTiles(fast, as: points, scales: [2])
    }
}
