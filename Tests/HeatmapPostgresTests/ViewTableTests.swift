import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// A view of the user's: drawn like its rows, and no index it cannot take is suggested.
@Suite(.serialized, .needsPostgres) struct ViewTableTests {
    @Test("a view draws its rows; the command does not suggest CREATE INDEX on it, which PostgreSQL refuses")
    func view() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let points = Array(PostgresSourceTests.points.prefix(60))
        try PlainTableRowsTests.makeTable("view_rows", points: points, on: connection)
        try connection.execute("CREATE OR REPLACE VIEW view_of_rows AS SELECT * FROM view_rows")
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "view_of_rows"))
        #expect(try source.isView())
        #expect(try !PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "view_rows")).isView())
        try PostgresSourceTests.expectSameTiles(source, as: points, scales: [1])
        let run = try HeatmapCommand.run([
            "info", "--postgres", cluster.url, "--table", "view_of_rows",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("view_of_rows is a view"), "\(run.standardError)")
        #expect(!run.standardError.contains("CREATE INDEX"), "\(run.standardError)")
    }
}
