import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapPostgresServer
import HeatmapServer
import Testing

@testable import HeatmapPostgres

/// `import --attach`: the change log of `import --shard` put on a table sharded by hand, and
/// rows written on a shard directly noticed by a running server.
extension ShardingTests {
    /// The shard (0 or 1) of ``ShardedCluster/bounds`` that holds a key.
    static func shard(ofKey key: Int64) -> Int { key >> 60 < -4 ? 0 : 1 }

    /// An INSERT of one row for a shard's own table, its positions computed on the coordinator.
    static func shardInsert(
        _ table: String, latitude: Double, longitude: Double, weight: Double, coordinator: PostgresConnection
    ) throws -> (shard: Int, sql: String) {
        let positions = try coordinator.execute(
            "SELECT heatmap_unit_x($2::float8), heatmap_unit_y($1::float8), heatmap_key($1::float8, $2::float8)",
            ["\(latitude)", "\(longitude)"])
        let (x, y, key) = (positions.text(0, 0) ?? "", positions.text(0, 1) ?? "", positions.text(0, 2) ?? "")
        let shard = Self.shard(ofKey: Int64(key) ?? 0)
        return (
            shard,
            "INSERT INTO \(table)_\(shard + 1) (lat, lng, weight, x, y, key) VALUES "
                + "(\(latitude), \(longitude), \(weight), \(x), \(y), \(key))"
        )
    }

    @Test("import --attach on a table sharded by hand: changes logged through the coordinator and on the shards")
    func attachByHand() async throws {
        let cluster = try Self.require()
        try cluster.build(table: "byhand", points: Self.points)
        let coordinator = cluster.coordinator.conninfo
        let source = try PostgresSource(connection: coordinator, table: PostgresTable(name: "byhand"))
        let first = try #require(try source.changeCount())
        let connection = try PostgresConnection(coordinator)
        try connection.execute(Self.insert("byhand", [(-31.95, 115.86, 1)]))
        #expect(try source.changes(after: first, through: first + 1) == nil, "no log before --attach")
        let run = try HeatmapCommand.run(["import", "--postgres", coordinator.text, "--table", "byhand", "--attach"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.standardOutput.contains("attached the change log to byhand: 2 shards logged"), "\(run.standardOutput)")
        #expect(!(run.standardOutput + run.standardError).contains(TestCluster.password), "no password printed")
        let again = try HeatmapCommand.run(["import", "--postgres", coordinator.text, "--table", "byhand", "--attach"])
        #expect(again.status == 0, "attached again: \(again.standardError)")
        let start = try #require(try source.changeCount())
        // One row on each shard, through the coordinator, in one statement.
        try connection.execute(Self.insert("byhand", [(-37.81, 144.96, 1), (-23.5, -46.6, 2)]))
        let both = try #require(try source.changes(after: start, through: start + 1))
        #expect(both.removed.isEmpty && both.added.count == 2 && both.added.allSatisfy { $0.level == 12 })
        // A row written on a shard itself: gathered by the next poll.
        let direct = try Self.shardInsert(
            "byhand", latitude: 40.7, longitude: -74.0, weight: 3, coordinator: connection)
        try PostgresConnection(cluster.shards[direct.shard].conninfo).execute(direct.sql)
        #expect(try source.changeCount() == start + 1, "the coordinator's count has not seen it")
        #expect(try source.gatherShardChanges(), "a shard's log has rows to gather")
        #expect(try source.changeCount() == start + 2)
        let gathered = try #require(try source.changes(after: start + 1, through: start + 2))
        #expect(gathered.added.count == 1 && gathered.removed.isEmpty)
        #expect(try !source.gatherShardChanges(), "nothing more to gather")
        #expect(try source.changeCount() == start + 2)
    }

    @Test("import --attach refuses a table that is not partitioned over foreign tables, naming it")
    func attachRefused() throws {
        let cluster = try Self.require()
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        try connection.execute("DROP TABLE IF EXISTS attach_plain, attach_local")
        try connection.execute("CREATE TABLE attach_plain (lat float8, lng float8)")
        let plain = try HeatmapCommand.run([
            "import", "--postgres", cluster.coordinator.conninfo.text, "--table", "attach_plain", "--attach",
        ])
        #expect(plain.status != 0 && plain.standardError.contains("table attach_plain"), "\(plain.standardError)")
        #expect(plain.standardError.contains("no column weight"), "\(plain.standardError)")
        try connection.execute(
            """
            CREATE TABLE attach_local (lat float8, lng float8, weight real, x int8, y int8, key int8) \
            PARTITION BY RANGE ((key >> 60))
            """)
        try connection.execute(
            "CREATE TABLE attach_local_1 PARTITION OF attach_local FOR VALUES FROM (MINVALUE) TO (MAXVALUE)")
        let local = try HeatmapCommand.run([
            "import", "--postgres", cluster.coordinator.conninfo.text, "--table", "attach_local", "--attach",
        ])
        #expect(
            local.status != 0 && local.standardError.contains("partition public.attach_local_1 is not a postgres_fdw"),
            "\(local.standardError)")
        let usage = try HeatmapCommand.run(["import", "x.csv", "--postgres", "", "--table", "t", "--attach"])
        #expect(usage.status != 0 && usage.standardError.contains("--attach takes no DATA"))
    }

    @Test("serve notices rows written on a shard directly within seconds: the reached tile redrawn, a far one kept")
    func servedShardWrites() async throws {
        let cluster = try Self.require()
        try cluster.build(table: "byhand_served", points: Self.points)
        let attached = try PostgresAttach.run(table: "byhand_served", connection: cluster.coordinator.conninfo)
        #expect(attached.shards == 2)
        let source = try PostgresSource(
            connection: cluster.coordinator.conninfo, table: PostgresTable(name: "byhand_served"))
        let served = try ServedTableFixture(source, interval: .milliseconds(200))
        defer { served.stop() }
        let (table, base) = (served.table, served.base)
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        let perth = try PartialChangeTests.path(-31.95, 115.86, zoom: 7)
        let saoPaulo = try PartialChangeTests.path(-23.55, -46.63, zoom: 7)
        let kept = try await PartialChangeTests.tile(saoPaulo, base: base)
        _ = try await PartialChangeTests.tile(perth, base: base)
        let direct = try Self.shardInsert(
            "byhand_served", latitude: -31.95, longitude: 115.86, weight: 4, coordinator: connection)
        let swaps = table.partialSwaps
        try PostgresConnection(cluster.shards[direct.shard].conninfo).execute(direct.sql)
        #expect(LiveDataTests.eventually(within: 10) { table.partialSwaps > swaps }, "noticed within seconds")
        let memory = HeatmapTileLayer(
            index: try PointIndex(points: LiveSummaryTests.rows(of: "byhand_served", on: connection)))
        for path in [perth, saoPaulo, "0/0/0"] {
            let parts = path.split(separator: "/").compactMap { Int($0) }
            let got = try await PartialChangeTests.tile(path, base: base)
            let expected = try memory.tileFor(x: parts[1], y: parts[2], zoom: parts[0])
            #expect(got.status == 200 && expected.png.map { Array(got.body) == $0 } == true, "\(path) as in memory")
        }
        #expect(try await PartialChangeTests.tile(saoPaulo, base: base).etag == kept.etag, "a far tile kept")
    }
}
