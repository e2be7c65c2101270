import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// The summaries of a table `import --shard` made: on the shards, read through the coordinator.
extension ShardingTests {
    @Test("a sharded table's coarse tiles read the shards' summaries (in each Remote SQL) and equal one server's")
    func shardedSummaries() throws {
        let cluster = try Self.require()
        let single = try TestCluster.require()
        let shards = cluster.shards.map(\.conninfo)
        let points = PostgresSourceTests.points
        _ = try PostgresShardedImport.run(
            points: points, into: "summed_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
        _ = try PostgresImport.run(points: points, into: "summed_one", connection: single.conninfo, mode: .replace)
        let sharded = try PostgresSource(
            connection: cluster.coordinator.conninfo, table: PostgresTable(name: "summed_shards"))
        let one = try PostgresSource(connection: single.conninfo, table: PostgresTable(name: "summed_one"))
        let cells = try #require(sharded.layout.shardCells?.table)
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        let finest = try #require(
            try connection.execute("SELECT finest FROM heatmap_summaries WHERE table_name = 'public.summed_shards'")
                .text(0, 0).flatMap { Int($0) })
        #expect(CellSummaries.levels.contains(finest), "summaries at some coarse level")
        let recording = RecordingSource(sharded)
        _ = try HeatmapTileLayer(source: recording).tileFor(x: 0, y: 0, zoom: 0)
        let query = try #require(recording.queries.withLock { $0 }.first { $0.space.zoom == 0 })
        let plan = try Self.plan(of: query, source: sharded, on: connection)
        #expect(plan.contains("Remote SQL: SELECT x, y, weight FROM public.summed_shards_cells"), "\(plan)")
        #expect(plan.components(separatedBy: "summed_shards_cells WHERE").count - 1 == shards.count, "\(plan)")
        #expect(cells.contains("summed_shards_cells"))

        /// Coarse tiles and M(z) from the coordinator equal one server's.
        func same(_ step: String) throws {
            let a = HeatmapTileLayer(source: sharded)
            let b = HeatmapTileLayer(source: one)
            for (zoom, x, y) in [(0, 0, 0), (1, 1, 1), (2, 3, 2), (3, 7, 4), (4, 14, 9)] {
                let (m, n) = (try a.normalization(zoom: zoom), try b.normalization(zoom: zoom))
                #expect(abs(m - n) <= 1e-6 * n, "\(step): M(\(zoom)) \(m) sharded, \(n) on one server")
                #expect(
                    try a.tileFor(x: x, y: y, zoom: zoom) == b.tileFor(x: x, y: y, zoom: zoom),
                    "\(step): tile \(zoom)/\(x)/\(y)")
            }
        }
        try same("after import")
        // Through the coordinator, rows give x, y and key: routing needs them before any trigger.
        let rows = """
            INSERT INTO %@ (lat, lng, weight, x, y, key) SELECT lat, lng, w, heatmap_unit_x(lng), heatmap_unit_y(lat), \
            heatmap_key(lat, lng) FROM (VALUES (-37.8, 144.9, 7), (-16, 179.99, 3), (40, -74, 2)) v (lat, lng, w)
            """
        try connection.execute(rows.replacing("%@", with: "summed_shards"))
        try PostgresConnection(single.conninfo).execute(rows.replacing("%@", with: "summed_one"))
        try connection.execute("UPDATE summed_shards SET weight = weight * 2 WHERE lng > 145")
        try PostgresConnection(single.conninfo).execute("UPDATE summed_one SET weight = weight * 2 WHERE lng > 145")
        try connection.execute("DELETE FROM summed_shards WHERE lat < -38")
        try PostgresConnection(single.conninfo).execute("DELETE FROM summed_one WHERE lat < -38")
        for shard in shards {
            #expect(
                try LiveSummaryTests.wrongCells("summed_shards", on: PostgresConnection(shard)) == "0",
                "a shard's summaries equal a rebuild after writes through the coordinator")
        }
        try same("after an INSERT and a DELETE through the coordinator")
    }
}
