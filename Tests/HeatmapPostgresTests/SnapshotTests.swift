import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapPostgres

/// One state of the table per tile and per M(z) search, though writes commit between their
/// statements (from another connection, in a hook the source calls after each statement).
@Suite(.serialized, .needsPostgres) struct SnapshotTests {
    static let points = PostgresSourceTests.points

    /// Rows that would change the antimeridian tile on both sides, and M(6).
    static let added: [WeightedLatLng] = [
        WeightedLatLng(coordinate: Coordinate(latitude: -15.99, longitude: 179.97), intensity: 50),
        WeightedLatLng(coordinate: Coordinate(latitude: -15.98, longitude: -179.97), intensity: 70),
        WeightedLatLng(coordinate: Coordinate(latitude: 1, longitude: 1), intensity: 900),
    ]

    static func insert(_ points: [WeightedLatLng], into table: String, on connection: PostgresConnection) throws {
        for point in points {
            try connection.execute(
                "INSERT INTO \(table) (lat, lng, weight) VALUES ($1::float8, $2::float8, $3::real)",
                ["\(point.coordinate.latitude)", "\(point.coordinate.longitude)", "\(point.intensity)"])
        }
    }

    /// The largest relative difference of two tiles' intensities (0 for two empty tiles).
    static func difference(_ a: IntensityGrid?, _ b: IntensityGrid?) -> Float {
        guard let a, let b else { return (a == nil) == (b == nil) ? 0 : .infinity }
        return zip(a.values, b.values).map { abs($0 - $1) / max($0, $1, .leastNormalMagnitude) }.max() ?? 0
    }

    @Test("a tile across the antimeridian and an M(z) search each read one state while writes commit between")
    func oneStatePerRequest() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(points: Self.points, into: "snap", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "snap"))
        let writer = try PostgresConnection(cluster.conninfo)
        let pending = Mutex<[WeightedLatLng]>([])
        let written = Atomic(0)
        source.hooks.afterStatement.withLock {
            $0 = {
                let rows = pending.withLock { rows in
                    defer { rows = [] }
                    return rows
                }
                guard !rows.isEmpty else { return }
                try? Self.insert(rows, into: "snap", on: writer)
                written.add(rows.count, ordering: .relaxed)
            }
        }
        defer { source.hooks.afterStatement.withLock { $0 = nil } }
        var now = Self.points
        let memory = HeatmapTileLayer(index: try PointIndex(points: now))
        // 6/0/34's padded area crosses the antimeridian: two statements, the write between them.
        pending.withLock { $0 = Array(Self.added.prefix(2)) }
        let tile = try HeatmapTileLayer(source: source).intensity(x: 0, y: 34, zoom: 6, scale: 1)
        #expect(written.load(ordering: .relaxed) == 2, "the write committed between the tile's statements")
        #expect(Self.difference(tile, try memory.intensity(x: 0, y: 34, zoom: 6, scale: 1)) <= 1e-6)
        now += Self.added.prefix(2)
        let newer = HeatmapTileLayer(index: try PointIndex(points: now))
        let after = try HeatmapTileLayer(source: source).intensity(x: 0, y: 34, zoom: 6, scale: 1)
        #expect(Self.difference(after, try newer.intensity(x: 0, y: 34, zoom: 6, scale: 1)) <= 1e-6)
        #expect(Self.difference(after, tile) > 1e-3, "the next tile sees the write")
        // M(6): the search's many statements, a heavy point written after the first.
        pending.withLock { $0 = [Self.added[2]] }
        let m = try HeatmapTileLayer(source: source).normalization(zoom: 6, scale: 1)
        #expect(written.load(ordering: .relaxed) == 3)
        let expected = try newer.normalization(zoom: 6, scale: 1)
        #expect(abs(m - expected) <= 1e-6 * expected, "M(6) \(m) from SQL, \(expected) in memory")
        now.append(Self.added[2])
        let latest = try HeatmapTileLayer(index: try PointIndex(points: now)).normalization(zoom: 6, scale: 1)
        let seen = try HeatmapTileLayer(source: source).normalization(zoom: 6, scale: 1)
        #expect(abs(seen - latest) <= 1e-6 * latest && latest > expected * 2, "M(6) \(seen), then \(latest)")
    }

    @Test("a version pinned to a change count fails a tile read from another state, and its watcher learns at once")
    func pinnedVersion() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(points: Self.points, into: "pinned", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "pinned"))
        let count = try #require(try source.changeCount())
        let version = source.pinned(toChangeCount: count)
        let seen = Mutex<[Int64?]>([])
        let watcher = PostgresChangeWatcher(source: source, initialCount: count, interval: .seconds(3600)) { count in
            seen.withLock { $0.append(count) }
        }
        defer { watcher.stop() }
        let before = try HeatmapTileLayer(source: version).intensity(x: 57, y: 39, zoom: 6, scale: 1)
        #expect(before != nil)
        let writer = try PostgresConnection(cluster.conninfo)
        try Self.insert(
            [WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9))], into: "pinned", on: writer)
        #expect(throws: PostgresError.changed(expected: count, found: count + 1)) {
            try version.intensity(
                in: PixelRect(tileX: 57, y: 39, in: try PixelSpace(zoom: 6, scale: 1)),
                space: try PixelSpace(zoom: 6, scale: 1), kernel: GaussianKernel(radius: 20))
        }
        #expect(throws: PostgresError.changed(expected: count, found: count + 1)) {
            try version.maximumIntensity(space: try PixelSpace(zoom: 3, scale: 1), kernel: GaussianKernel(radius: 20))
        }
        #expect(seen.withLock { $0 } == [count + 1], "the watcher was told once, before any poll")
        #expect(PostgresError.changed(expected: count, found: count + 1).isUnavailable)
        let next = source.pinned(toChangeCount: count + 1)
        #expect(try HeatmapTileLayer(source: next).intensity(x: 57, y: 39, zoom: 6, scale: 1) != nil)
    }
}
