import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// Two sessions that install HeatmapKit's shared objects and write imported tables at once (an
/// `import` of one table beside an `import --append` or a transaction of inserts into another)
/// never deadlock: nothing done under the advisory lock waits on a table that writers lock
/// before they take it.
@Suite(.serialized, .needsPostgres) struct ConcurrentInstallTests {
    @Test("installing the shared objects does not wait on a writer of an imported table that holds heatmap_changes")
    func installBesideWriter() throws {
        // The writer: its insert's log trigger holds ROW EXCLUSIVE on heatmap_changes until commit.
        let (cluster, writer) = try TestCluster.imported(
            "install_beside_writer", points: LiveDataTests.points, begin: true)
        try writer.execute("INSERT INTO install_beside_writer (lat, lng, weight) VALUES (10, 20, 1)")
        // The installer (the first step of every import) must finish at once, not wait for the writer
        // while it holds the advisory lock the writer's next step (its summaries, an append's
        // triggers) takes: that was a deadlock.
        let installer = try PostgresConnection(cluster.conninfo)
        try installer.execute("SET lock_timeout = '5s'")
        var installed = true
        do {
            try PositionSQL.install(on: installer, extra: ChangeLog.sharedStatements)
        } catch {
            installed = false
            Issue.record("the install waited on the writer: \(error)")
        }
        #expect(installed)
        try writer.execute("SET LOCAL lock_timeout = '5s'")
        try writer.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
        try writer.execute("COMMIT")
        let rows = try writer.execute("SELECT count(*) FROM install_beside_writer").text(0, 0)
        #expect(rows == "\(LiveDataTests.points.count + 1)")
        let index = try writer.execute("SELECT to_regclass('heatmap_changes_version') IS NOT NULL").text(0, 0)
        #expect(index == "t", "the log's index is still made")
    }
}
