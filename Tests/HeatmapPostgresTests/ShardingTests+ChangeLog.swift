import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapPostgresServer
import HeatmapServer
import Testing

@testable import HeatmapPostgres

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The change log of a table `import --shard` made (``ShardChangeLog``): each shard logs its
/// rows' cells, the coordinator gathers them under its change count.
extension ShardingTests {
    /// An INSERT through the coordinator, with the position columns routing needs.
    static func insert(_ table: String, _ rows: [(Double, Double, Double)]) -> String {
        let values = rows.map { "(\($0.0)::float8, \($0.1)::float8, \($0.2)::float8)" }.joined(separator: ", ")
        return """
            INSERT INTO \(table) (lat, lng, weight, x, y, key) SELECT lat, lng, w, heatmap_unit_x(lng), \
            heatmap_unit_y(lat), heatmap_key(lat, lng) FROM (VALUES \(values)) AS v (lat, lng, w)
            """
    }

    @Test("changes through the coordinator are logged on each shard and gathered: the cells they touch, no more")
    func shardedChangeLog() throws {
        let cluster = try Self.require()
        let shards = cluster.shards.map(\.conninfo)
        _ = try PostgresShardedImport.run(
            points: Self.points, into: "logged_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
        let source = try PostgresSource(
            connection: cluster.coordinator.conninfo, table: PostgresTable(name: "logged_shards"))
        let start = try #require(try source.changeCount())
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        // One row on each shard (Melbourne on the first, São Paulo on the second), in one statement.
        try connection.execute(Self.insert("logged_shards", [(-37.81, 144.96, 1), (-23.5, -46.6, 2)]))
        #expect(try source.changeCount() == start + 1)
        for shard in shards {
            let logged = try PostgresConnection(shard).execute(
                "SELECT count(*) FROM heatmap_changes WHERE table_name = 'public.logged_shards'")
            #expect(logged.text(0, 0) == "1", "each shard logs its own row's cell")
        }
        let added = try #require(try source.changes(after: start, through: start + 1))
        #expect(added.removed.isEmpty && added.added.count == 2 && added.added.allSatisfy { $0.level == 12 })
        try connection.execute("DELETE FROM logged_shards WHERE lat < -37.8 AND lat > -37.82")
        let now = try #require(try source.changeCount())
        let removed = try #require(try source.changes(after: start + 1, through: now))
        #expect(!removed.removed.isEmpty && removed.added.isEmpty)
        #expect(removed.removed.allSatisfy { cell in cell.level == 12 })
        // Replaced: the log starts again, complete from the new import's count.
        _ = try PostgresShardedImport.run(
            points: Self.points, into: "logged_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
        let again = try #require(try source.changeCount())
        try connection.execute(Self.insert("logged_shards", [(-23.5, -46.6, 2)]))
        let one = try #require(try source.changes(after: again, through: again + 1))
        #expect(one.added.count == 1 && one.removed.isEmpty)
        try connection.execute("TRUNCATE logged_shards")
        #expect(try source.changes(after: again + 1, through: again + 2)?.isWholeWorld == true)
    }

    @Test("a served sharded table: a far tile keeps its ETag after a change, reached tiles equal a fresh layer's")
    func shardedPartialSwap() async throws {
        let cluster = try Self.require()
        _ = try PostgresShardedImport.run(
            points: Self.points, into: "served_shards", coordinator: cluster.coordinator.conninfo,
            shards: cluster.shards.map(\.conninfo), mode: .replace)
        let source = try PostgresSource(
            connection: cluster.coordinator.conninfo, table: PostgresTable(name: "served_shards"))
        // The glue `heatmap serve --postgres` uses.
        let served = try ServedTableFixture(source)
        defer { served.stop() }
        let (table, layer, base) = (served.table, served.layer, served.base)
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        let melbourne = try PartialChangeTests.path(-37.81, 144.96, zoom: 7)
        let perth = try PartialChangeTests.path(-31.95, 115.86, zoom: 7)
        let saoPaulo = try PartialChangeTests.path(-23.55, -46.63, zoom: 7)
        let newYork = try PartialChangeTests.path(40.7, -74.0, zoom: 7)
        let paths = ["0/0/0", melbourne, perth, saoPaulo, newYork]

        func checkExact(_ step: String) async throws {
            let memory = HeatmapTileLayer(
                index: try PointIndex(points: LiveSummaryTests.rows(of: "served_shards", on: connection)))
            for path in paths {
                let parts = path.split(separator: "/").compactMap { Int($0) }
                let got = try await PartialChangeTests.tile(path, base: base)
                let expected = try memory.tileFor(x: parts[1], y: parts[2], zoom: parts[0])
                #expect(got.status == (expected.png == nil ? 204 : 200), "\(step): \(path)")
                #expect(expected.png.map { Array(got.body) == $0 } ?? true, "\(step): tile \(path) as in memory")
            }
            for (key, value) in layer.knownMaxima {
                let fresh = try memory.normalizationDetails(zoom: key.zoom, scale: key.scale).value
                #expect(abs(Double(value) - fresh) <= 1e-6 * fresh, "\(step): M(\(key.zoom)) \(value) vs \(fresh)")
            }
            #expect(!layer.knownMaxima.isEmpty, "\(step): M(z) known")
        }

        func change(_ sql: String, kept: [String], redrawn: [String], _ step: String) async throws {
            var before: [String: String] = [:]
            for path in paths { before[path] = try await PartialChangeTests.tile(path, base: base).etag }
            let swaps = table.partialSwaps
            try connection.execute(sql)
            #expect(LiveDataTests.eventually { table.partialSwaps > swaps }, "\(step): a partial swap")
            for path in kept {
                let hits = try await PartialChangeTests.counter("heatmap_tile_cache_hits_total", base: base)
                #expect(try await PartialChangeTests.tile(path, base: base).etag == before[path], "\(step): \(path)")
                #expect(
                    try await PartialChangeTests.counter("heatmap_tile_cache_hits_total", base: base) == hits + 1,
                    "\(step): \(path) from the cache")
            }
            for path in redrawn {
                let hits = try await PartialChangeTests.counter("heatmap_tile_cache_hits_total", base: base)
                _ = try await PartialChangeTests.tile(path, base: base)
                #expect(
                    try await PartialChangeTests.counter("heatmap_tile_cache_hits_total", base: base) == hits,
                    "\(step): \(path) drawn again")
            }
            try await checkExact(step)
        }

        try await checkExact("at start")
        try await change(
            Self.insert("served_shards", [(-31.95, 115.86, 1), (-31.96, 115.87, 1)]), kept: [melbourne, saoPaulo],
            redrawn: ["0/0/0", perth], "insert on the first shard")
        // Far from the dense São Paulo cluster, whose M(7) an insert there would raise (dropping the zoom).
        try await change(
            Self.insert("served_shards", [(40.7, -74.0, 1)]), kept: [melbourne, perth, saoPaulo],
            redrawn: ["0/0/0", newYork], "insert in the north")
        try await change(
            "DELETE FROM served_shards WHERE lat < -31 AND lat > -32", kept: [melbourne, saoPaulo],
            redrawn: ["0/0/0", perth], "delete")
    }
}
