import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// `import --shard` from a file (``PostgresShardedImport/run(path:options:into:coordinator:shards:mode:chunkSize:progress:)``):
/// streamed to every shard's open `COPY`, with the errors of one server's import, and what a
/// failure leaves under the two-phase commit and without it.
extension ShardingTests {
    /// The rows of `table` on each shard.
    static func shardCounts(_ table: String, _ cluster: ShardedCluster) throws -> [Int] {
        try cluster.shards.map {
            try Int(PostgresConnection($0.conninfo).execute("SELECT count(*) FROM \(table)").text(0, 0) ?? "") ?? -1
        }
    }

    /// The prepared transactions left on the shards.
    static func preparedLeft(_ cluster: ShardedCluster) throws -> Int {
        try cluster.shards.map {
            try Int(PostgresConnection($0.conninfo).execute("SELECT count(*) FROM pg_prepared_xacts").text(0, 0) ?? "")
                ?? -1
        }.reduce(0, +)
    }

    @Test("import --shard streams a file in chunks to every shard: every row, memory's tiles, nothing prepared left")
    func shardedFileImport() throws {
        let cluster = try Self.require()
        let shards = cluster.shards.map(\.conninfo)
        let folder = NSTemporaryDirectory() + "heatmap-shard-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/points.csv"
        let text = Self.points.map { "\($0.coordinate.latitude),\($0.coordinate.longitude),\($0.intensity)\n" }
        try Data(("lat,lng,weight\n" + text.joined()).utf8).write(to: URL(fileURLWithPath: path))
        var heard: [Int] = []
        let loaded = try PostgresShardedImport.run(
            path: path, into: "streamed_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace, chunkSize: 100
        ) { sent, total in
            #expect(total == Self.points.count)
            heard.append(sent)
        }
        #expect(loaded.summary.rows == Self.points.count && loaded.report.pointsRead == Self.points.count)
        #expect(heard.count > 5 && heard.last == Self.points.count)
        let counts = try Self.shardCounts("streamed_shards", cluster)
        #expect(counts.allSatisfy { $0 > 0 } && counts.reduce(0, +) == Self.points.count, "\(counts)")
        #expect(try Self.preparedLeft(cluster) == 0)
        // The cuts are the ones the points read whole give.
        let keys = Self.points.map { point in
            let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
            let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
            return Int64(bitPattern: KeyRanges.key(x: x, y: y))
        }
        let layout = ShardLayout(shards: 2, keys: keys)
        #expect(counts[0] == keys.filter { layout.shard(of: $0) == 0 }.count)
        let memory = HeatmapTileLayer(index: try PointIndex(points: Self.points))
        let database = HeatmapTileLayer(
            source: try PostgresSource(
                connection: cluster.coordinator.conninfo, table: PostgresTable(name: "streamed_shards")))
        for tile in Self.tiles.prefix(3) {
            #expect(
                try memory.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: 1)
                    == database.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: 1), "tile \(tile)")
        }
        // An invalid row names the file and line, and fails before any server is reached.
        let bad = folder + "/bad.csv"
        try Data("lat,lng,weight\n-37.8,145,1\n91.5,145,1\n".utf8).write(to: URL(fileURLWithPath: bad))
        do {
            _ = try PostgresShardedImport.run(
                path: bad, into: "streamed_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
                mode: .replace)
            Issue.record("an invalid row was imported")
        } catch {
            guard case .data(let failure) = error else { throw error }
            #expect(failure.path == bad && failure.line == 3, "\(failure)")
        }
        #expect(try Self.shardCounts("streamed_shards", cluster).reduce(0, +) == Self.points.count)
    }

    @Test("a coordinator failing after the shards' copies: two phases roll every shard back; one says what stays")
    func coordinatorFailure() throws {
        let cluster = try Self.require()
        let shards = cluster.shards.map(\.conninfo)
        let coordinator = try PostgresConnection(cluster.coordinator.conninfo)
        _ = try PostgresShardedImport.run(
            points: Self.points, into: "clash_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
            mode: .replace)
        // A view of the user's on the table: the coordinator's DROP TABLE fails after the shards' copies.
        try coordinator.execute("CREATE VIEW clash_view AS SELECT count(*) FROM clash_shards")
        defer { _ = try? coordinator.execute("DROP VIEW IF EXISTS clash_view") }
        let fewer = Array(Self.points.prefix(100))
        #expect(throws: PostgresError.self) {
            try PostgresShardedImport.run(
                points: fewer, into: "clash_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
                mode: .replace)
        }
        #expect(try Self.shardCounts("clash_shards", cluster).reduce(0, +) == Self.points.count, "rolled back")
        #expect(try Self.preparedLeft(cluster) == 0)
        do {
            _ = try PostgresShardedImport.run(
                points: fewer, into: "clash_shards", coordinator: cluster.coordinator.conninfo, shards: shards,
                mode: .replace, twoPhase: false)
            Issue.record("the coordinator's failure was not reported")
        } catch {
            #expect(String(describing: error).contains("--replace drops them"), "\(error)")
        }
        #expect(try Self.shardCounts("clash_shards", cluster).reduce(0, +) == 100, "committed before the coordinator")
    }
}
