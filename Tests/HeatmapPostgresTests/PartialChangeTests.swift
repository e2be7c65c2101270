import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapPostgresServer
import HeatmapServer
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A served table's changes drop only the cached tiles they reach, and keep M(z) exact.
@Suite(.serialized, .needsPostgres) struct PartialChangeTests {
    /// The value of a counter in `/metrics`.
    static func counter(_ name: String, base: String) async throws -> Int {
        let text = String(decoding: try await ServedTableTests.get("\(base)/metrics").body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }

    /// A tile's status, ETag and body.
    static func tile(_ path: String, base: String) async throws -> LoopbackHTTP.Answer {
        try await LoopbackHTTP.get("\(base)/t/\(path).png")
    }

    /// The tile of `coordinate` at `zoom`, as `z/x/y`.
    static func path(_ latitude: Double, _ longitude: Double, zoom: Int) throws -> String {
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let pixel = space.pixel(of: Coordinate(latitude: latitude, longitude: longitude))
        return "\(zoom)/\(pixel.x / 256)/\(pixel.y / 256)"
    }

    @Test(
        "INSERT, UPDATE, DELETE: tiles elsewhere stay cached (same ETag, a cache hit), reached ones change, M(z) exact")
    func partial() async throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(
            points: PostgresSourceTests.points, into: "partial", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "partial"))
        // The glue `heatmap serve --postgres` uses.
        let served = try ServedTableFixture(source)
        defer { served.stop() }
        let (table, layer, base) = (served.table, served.layer, served.base)
        let connection = try PostgresConnection(cluster.conninfo)
        let melbourne = try Self.path(-37.81, 144.96, zoom: 7)
        let perth = try Self.path(-31.95, 115.86, zoom: 7)
        let fijiEast = try Self.path(-16, 179.95, zoom: 7)
        let fijiWest = try Self.path(-16, -179.95, zoom: 7)
        let paths = ["0/0/0", melbourne, perth, fijiEast, fijiWest]

        /// Every tile equals the one drawn in memory from the rows now, and M(z) each zoom.
        func checkExact(_ step: String) async throws {
            let rows = try LiveSummaryTests.rows(of: "partial", on: connection)
            let memory = HeatmapTileLayer(index: try PointIndex(points: rows))
            for path in paths {
                let parts = path.split(separator: "/").compactMap { Int($0) }
                let got = try await Self.tile(path, base: base)
                let expected = try memory.tileFor(x: parts[1], y: parts[2], zoom: parts[0])
                #expect(got.status == (expected.png == nil ? 204 : 200), "\(step): \(path)")
                #expect(expected.png.map { Array(got.body) == $0 } ?? true, "\(step): tile \(path) as in memory")
            }
            for (key, value) in layer.knownMaxima {
                let fresh = try memory.normalizationDetails(zoom: key.zoom, scale: key.scale).value
                #expect(abs(Double(value) - fresh) <= 1e-6 * fresh, "\(step): M(\(key.zoom)) \(value) vs \(fresh)")
            }
        }

        /// Runs `sql`, waits for the partial swap, and checks which tiles were kept.
        func change(_ sql: String, kept: [String], redrawn: [String], _ step: String) async throws {
            var before: [String: String] = [:]
            for path in paths { before[path] = try await Self.tile(path, base: base).etag }
            let swaps = table.partialSwaps
            try connection.execute(sql)
            // An update where M(z) lies searches M(z) again in full: 18 s here on a loaded machine.
            #expect(LiveDataTests.eventually(within: 60) { table.partialSwaps > swaps }, "\(step): a partial swap")
            for path in kept {
                let hits = try await Self.counter("heatmap_tile_cache_hits_total", base: base)
                #expect(try await Self.tile(path, base: base).etag == before[path], "\(step): \(path) kept")
                #expect(
                    try await Self.counter("heatmap_tile_cache_hits_total", base: base) == hits + 1,
                    "\(step): \(path) from the cache")
            }
            for path in redrawn {
                let hits = try await Self.counter("heatmap_tile_cache_hits_total", base: base)
                _ = try await Self.tile(path, base: base)
                #expect(
                    try await Self.counter("heatmap_tile_cache_hits_total", base: base) == hits,
                    "\(step): \(path) drawn again")
            }
            try await checkExact(step)
        }

        try await checkExact("at start")
        try await change(
            "INSERT INTO partial (lat, lng, weight) VALUES (-31.95, 115.86, 1), (-31.96, 115.87, 1)",
            kept: [melbourne, fijiEast, fijiWest], redrawn: ["0/0/0", perth], "insert")
        try await change(
            // Old rows removed and new ones added on both sides of the antimeridian, where M(7) is
            // (its full search again finds the same value): a heavier cluster would move it and
            // drop every tile of the zoom, as the last step shows.
            "UPDATE partial SET weight = weight WHERE lng > 179.9 OR lng < -179.9",
            kept: [melbourne, perth], redrawn: [fijiEast, fijiWest, "0/0/0"], "update across the antimeridian")
        try await change(
            "DELETE FROM partial WHERE lat < -31 AND lat > -32", kept: [melbourne, fijiEast, fijiWest],
            redrawn: ["0/0/0", perth], "delete")
        try await change(
            "INSERT INTO partial (lat, lng, weight) VALUES (-37.81, 144.96, 500)", kept: [],
            redrawn: [melbourne, perth, fijiEast], "an insert that raises M(z)")
    }
}

extension PartialChangeTests {
    @Test(
        "a plain table (no change log) and a TRUNCATE swap in a whole version; the log is complete from the import on")
    func whole() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("DROP TABLE IF EXISTS plainlog")
        try connection.execute("CREATE TABLE plainlog (lat float8, lng float8)")
        try connection.execute("INSERT INTO plainlog VALUES (-37.8, 144.9)")
        let plain = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "plainlog"))
        #expect(plain.pinned(toChangeCount: 2).partialUpdate(after: 1, knownMaxima: [:]) == nil)
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "wholelog", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "wholelog"))
        let start = try #require(try source.changeCount())
        try connection.execute("INSERT INTO wholelog (lat, lng, weight) VALUES (-16, 179.9999, 1)")
        let one = try #require(try source.changes(after: start, through: start + 1))
        #expect(one.removed.isEmpty && one.added.count == 1 && one.added.first?.level == 12)
        let update = try #require(source.pinned(toChangeCount: start + 1).partialUpdate(after: start, knownMaxima: [:]))
        // The point is in the east column of tiles; its kernel reaches across the antimeridian.
        let space = try PixelSpace(zoom: 7, scale: 1)
        let row = space.pixel(of: Coordinate(latitude: -16, longitude: 179.9999)).y / 256
        #expect(update.reaches(space, 20, 127, row) && update.reaches(space, 20, 0, row))
        #expect(!update.reaches(space, 20, 1, row) && !update.reaches(space, 20, 126, row))
        #expect(!update.reaches(space, 20, 0, row + 1) && !update.reaches(space, 20, 0, row - 1))
        #expect(update.reaches(try PixelSpace(zoom: 0, scale: 1), 20, 0, 0))
        try connection.execute("TRUNCATE wholelog")
        #expect(source.pinned(toChangeCount: start + 2).partialUpdate(after: start + 1, knownMaxima: [:]) == nil)
        for _ in 0..<70 { try connection.execute("INSERT INTO wholelog (lat, lng, weight) VALUES (10, 20, 1)") }
        let now = try #require(try source.changeCount())
        let after = try connection.execute(
            "SELECT complete_after FROM heatmap_change_logs WHERE table_name = 'public.wholelog'"
        ).text(0, 0)
        #expect(after == "\(start)", "nothing pruned yet at \(now)")
        #expect(try source.changes(after: start, through: now) != nil)
    }
}
