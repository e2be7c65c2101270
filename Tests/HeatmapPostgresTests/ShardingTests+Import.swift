import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// `import --shard` (``PostgresShardedImport``) on the suite's clusters.
extension ShardingTests {
    @Test("import --shard copies each shard's rows straight to it and partitions the coordinator's table over them")
    func shardedImport() throws {
        let cluster = try Self.require()
        let shards = cluster.shards.map(\.conninfo)
        let summary = try PostgresShardedImport.run(
            points: Self.points, into: "imported_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
        #expect(summary.rows == Self.points.count)
        func counts() throws -> [Int] {
            try shards.map {
                try Int(PostgresConnection($0).execute("SELECT count(*) FROM imported_shards").text(0, 0) ?? "") ?? 0
            }
        }
        #expect(try counts().allSatisfy { $0 > 0 })
        #expect(try counts().reduce(0, +) == Self.points.count)
        #expect(throws: PostgresError.tableExists("imported_shards")) {
            try PostgresShardedImport.run(
                points: Self.points, into: "imported_shards", coordinator: cluster.coordinator.conninfo,
                shards: shards, mode: .create)
        }
        let source = try PostgresSource(
            connection: cluster.coordinator.conninfo, table: PostgresTable(name: "imported_shards"))
        #expect(source.layout.partitionShift == ShardLayout.shift)
        #expect(source.layout.summaries == nil)
        let recording = RecordingSource(source)
        let memory = HeatmapTileLayer(index: try PointIndex(points: Self.points))
        let database = HeatmapTileLayer(source: recording)
        for tile in Self.tiles {
            let (m, d) = (try memory.normalization(zoom: tile.zoom), try database.normalization(zoom: tile.zoom))
            #expect(abs(m - d) <= 1e-6 * m, "M(\(tile.zoom)): \(m) in memory, \(d) from the coordinator")
            #expect(
                try memory.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: 2)
                    == database.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: 2), "tile \(tile)")
        }
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        try connection.execute("SET enable_partitionwise_aggregate = on")
        for query in Set(recording.queries.withLock { $0 }).prefix(40) {
            let plan = try Self.plan(of: query, source: source, on: connection)
            #expect(!plan.contains("Aggregate  ("), "an aggregate on the coordinator: \(plan)")
        }
        // Replaced: fewer rows, on the same shards.
        _ = try PostgresShardedImport.run(
            points: Array(Self.points.prefix(100)), into: "imported_shards", coordinator: cluster.coordinator.conninfo,
            shards: shards, mode: .replace)
        #expect(try counts().reduce(0, +) == 100)
    }
}
