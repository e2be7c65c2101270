import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapPostgres

/// Changes to the rows, and the database lost and back, on clusters the tests start.
@Suite(.serialized, .needsPostgres) struct LiveDataTests {
    static let points = Array(PostgresSourceTests.points.prefix(60))

    /// Waits for `condition`, up to `seconds`, checking every 50 ms.
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    @Test("a change count moves with each writing statement, at its commit; the watcher sees it")
    func changeCount() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(points: Self.points, into: "live", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "live"))
        let first = try #require(try source.changeCount())
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("BEGIN")
        try connection.execute("INSERT INTO live (lat, lng, weight) VALUES (-37.8, 144.9, 9), (-37.7, 145, 1)")
        #expect(try source.changeCount() == first, "not before the commit")
        try connection.execute("COMMIT")
        #expect(try source.changeCount() == first + 1)
        let changes = Atomic(0)
        let watcher = PostgresChangeWatcher(source: source, interval: .milliseconds(100)) {
            changes.add(1, ordering: .relaxed)
        }
        watcher.start()
        defer { watcher.stop() }
        try connection.execute("DELETE FROM live WHERE weight = 9")
        #expect(Self.eventually { changes.load(ordering: .relaxed) >= 1 })
        // The layer made afresh from the source draws the rows as they are now.
        let layer = HeatmapTileLayer(source: source)
        let before = try layer.tileFor(x: 115, y: 78, zoom: 7)
        try connection.execute("UPDATE live SET weight = weight * 3 WHERE lng > 144")
        layer.replaceSource(with: source)
        let after = try layer.tileFor(x: 115, y: 78, zoom: 7)
        #expect(before != after)
        let rows = try connection.execute("SELECT lat, lng, weight FROM live")
        var now: [WeightedLatLng] = []
        for row in 0..<rows.rowCount {
            guard let lat = rows.text(row, 0).flatMap(Double.init), let lng = rows.text(row, 1).flatMap(Double.init),
                let weight = rows.text(row, 2).flatMap(Double.init)
            else { continue }
            now.append(WeightedLatLng(coordinate: Coordinate(latitude: lat, longitude: lng), intensity: weight))
        }
        #expect(try HeatmapTileLayer(index: try PointIndex(points: now)).tileFor(x: 115, y: 78, zoom: 7) == after)
        // A plain table has no count.
        try connection.execute("DROP TABLE IF EXISTS uncounted")
        try connection.execute("CREATE TABLE uncounted (lat float8, lng float8)")
        #expect(
            try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "uncounted")).changeCount()
                == nil)
    }

    @Test(
        "the database down at start is a clear error; lost, tiles fail as unavailable and cached ones stay; back, tiles come again"
    )
    func lostAndBack() throws {
        _ = try TestCluster.require()
        let cluster = try TestCluster()
        defer { cluster.stop() }
        _ = try PostgresImport.run(points: Self.points, into: "faults", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "faults"))
        let layer = HeatmapTileLayer(source: source)
        let cached = try layer.tileFor(x: 115, y: 78, zoom: 7)
        try cluster.stopServer()
        #expect(try layer.tileFor(x: 115, y: 78, zoom: 7) == cached, "a cached tile needs no database")
        do {
            _ = try layer.tileFor(x: 57, y: 39, zoom: 6)
            Issue.record("a tile was drawn with the database down")
        } catch {
            guard case .sourceFailed(let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(!reason.contains(TestCluster.password))
        }
        do {
            _ = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "faults"))
            Issue.record("connected to a stopped server")
        } catch {
            #expect(error.isUnavailable)
            #expect(error.description.contains("could not connect"))
            #expect(!error.description.contains(TestCluster.password))
        }
        try cluster.start()
        // Reconnects after the backoff (at most 8 s).
        #expect(Self.eventually(within: 20) { (try? layer.tileFor(x: 57, y: 39, zoom: 6)) != nil })
    }

    @Test("a query slower than the statement timeout is cancelled as unavailable")
    func statementTimeout() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(points: Self.points, into: "slow", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "slow", filter: "pg_sleep(0.5) IS NOT NULL"),
            statementTimeout: .milliseconds(100))
        let space = try PixelSpace(zoom: 7, scale: 1)
        do {
            _ = try source.intensity(
                in: PixelRect(tileX: 115, y: 78, in: space), space: space, kernel: GaussianKernel(radius: 20))
            Issue.record("the slow query was not cancelled")
        } catch {
            guard case .timedOut = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.isUnavailable)
        }
    }
}
