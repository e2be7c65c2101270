import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// A table another session locks (an `ALTER TABLE`, a `LOCK`, a `VACUUM FULL`) while it is
/// rendered or served: statements wait for the lock at most `lock_timeout` (10 s unless the
/// connection sets it; 1 s here), then `render` stops saying the table is locked and `serve`
/// answers 503, logs it once, and draws the tile again once the lock is gone. Never a silent
/// hang, never a tile of two states (a table changed during either: see `RenderTableTests`,
/// `SnapshotTests`).
@Suite(.serialized, .needsPostgres) struct LockedTableTests {
    /// The cluster's URL with `lock_timeout` set to 1 s by the connection string.
    static func url(_ cluster: TestCluster) -> String {
        cluster.url + "?options=-c%20lock_timeout%3D1s"
    }

    @Test("the pool's connections wait 10 s for a lock unless the string sets lock_timeout")
    func defaults() throws {
        let (cluster, _) = try TestCluster.imported("locked_default", points: LiveDataTests.points)
        for (url, expected) in [(cluster.url, "10s"), (Self.url(cluster), "1s")] {
            let source = try PostgresSource(
                connection: ConnectionString(url), table: PostgresTable(name: "locked_default"))
            let found = try source.pool.with { (connection) throws(PostgresError) in
                try connection.execute("SHOW lock_timeout").text(0, 0)
            }
            #expect(found == expected)
        }
    }

    @Test("render of a locked table stops after lock_timeout, saying the table is locked; nothing hangs")
    func render() throws {
        let (cluster, locker) = try TestCluster.imported("locked_render", points: LiveDataTests.points, begin: true)
        try locker.execute("LOCK TABLE locked_render IN ACCESS EXCLUSIVE MODE")
        let output = HeatmapCommand.temporaryPath("locked.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let start = ContinuousClock.now
        let run = try HeatmapCommand.run([
            "render", "--postgres", Self.url(cluster), "--table", "locked_render", "--zoom", "0-3", "--output", output,
        ])
        let took = ContinuousClock.now - start
        try locker.execute("ROLLBACK")
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("another session holds a lock on the table"), "\(run.standardError)")
        #expect(!run.standardError.contains(TestCluster.password))
        #expect(took < .seconds(30), "\(took)")
        // Unlocked, it renders.
        let again = try HeatmapCommand.run([
            "render", "--postgres", Self.url(cluster), "--table", "locked_render", "--zoom", "0-3", "--output", output,
            "--force",
        ])
        #expect(again.status == 0, "\(again.standardError)")
    }

    @Test("serve of a locked table answers 503 after lock_timeout, logs it once, and 200 once unlocked")
    func serve() async throws {
        let (cluster, locker) = try TestCluster.imported("locked_serve", points: LiveDataTests.points)
        let server = try ServeProcess(["--postgres", Self.url(cluster), "--table", "locked_serve"])
        #expect(try await LoopbackHTTP.get(server.base + "/locked_serve/7/115/78.png").status == 200)
        try locker.execute("BEGIN")
        try locker.execute("LOCK TABLE locked_serve IN ACCESS EXCLUSIVE MODE")
        var statuses: [Int] = []
        for (x, y) in [(57, 39), (56, 39)] {
            statuses.append(try await LoopbackHTTP.get(server.base + "/locked_serve/6/\(x)/\(y).png").status)
        }
        try locker.execute("ROLLBACK")
        var after = 0
        for _ in 0..<100 where after != 200 {
            after = try await LoopbackHTTP.get(server.base + "/locked_serve/6/57/39.png").status
            if after != 200 { try await Task.sleep(for: .milliseconds(200)) }
        }
        let log = server.stop()
        #expect(statuses == [503, 503], "\(statuses): \(log)")
        #expect(after == 200, "drawn again once unlocked: \(log)")
        let lines = log.split(separator: "\n").filter { $0.contains("another session holds a lock") }
        #expect(lines.count == 1, "once an episode: \(log)")
    }
}
