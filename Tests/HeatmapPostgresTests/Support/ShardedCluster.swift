import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization

@testable import HeatmapPostgres

/// Two shard clusters and a coordinator, each a throwaway ``TestCluster`` of its own, with
/// README's recipe ("Sharded over several servers") run on them: a partitioned table on the
/// coordinator, `PARTITION BY RANGE ((key >> 60))`, whose two partitions are `postgres_fdw`
/// foreign tables on the shards. `stop()` stops and removes all three.
final class ShardedCluster: Sendable {
    let coordinator: TestCluster
    let shards: [TestCluster]

    /// The partitions: the Z-order prefix `key >> 60` (the world as 4 × 4 cells, -8 ... 7 in
    /// Z order) from `MINVALUE` to -4 (the south-west quarter) on the first shard, the rest
    /// (the south-east quarter and the north) on the second.
    static let bounds = [("MINVALUE", "-4"), ("-4", "MAXVALUE")]

    /// Starts the three clusters (stopping those started when one fails).
    init() throws {
        var started: [TestCluster] = []
        do {
            // The shards allow prepared transactions, for import --shard's two-phase commit.
            started.append(try TestCluster())
            for _ in 0..<2 { started.append(try TestCluster(settings: ["max_prepared_transactions=4"])) }
        } catch {
            for cluster in started { cluster.stop() }
            throw error
        }
        coordinator = started[0]
        shards = Array(started[1...])
    }

    func stop() {
        for cluster in [coordinator] + shards { cluster.stop() }
    }

    /// Makes `table` on each shard and the partitioned table over them on the coordinator,
    /// loads `points` (imported into a staging table on the coordinator, then
    /// `INSERT … SELECT` into the partitioned table, which routes each row to its shard), and
    /// adds the change counter's trigger.
    func build(table: String, points: [WeightedLatLng]) throws {
        let columns = """
            lat float8 NOT NULL, lng float8 NOT NULL, weight real NOT NULL DEFAULT 1, \
            x int8 NOT NULL, y int8 NOT NULL, key int8 NOT NULL
            """
        for (number, shard) in shards.enumerated() {
            let connection = try PostgresConnection(shard.conninfo)
            try connection.execute("CREATE TABLE \(table)_\(number + 1) (\(columns))")
            try connection.execute("CREATE INDEX ON \(table)_\(number + 1) (key)")
        }
        _ = try PostgresImport.run(
            points: points, into: "\(table)_staging", connection: coordinator.conninfo, mode: .replace)
        let connection = try PostgresConnection(coordinator.conninfo)
        try TestCluster.createExtension("postgres_fdw", on: connection)
        try connection.execute("CREATE TABLE \(table) (\(columns)) PARTITION BY RANGE ((key >> 60))")
        for (number, shard) in shards.enumerated() {
            let server = "shard\(number + 1)"
            try connection.execute(
                """
                CREATE SERVER IF NOT EXISTS \(server) FOREIGN DATA WRAPPER postgres_fdw \
                OPTIONS (host '127.0.0.1', port '\(shard.port)', dbname 'postgres', batch_size '1000')
                """)
            try connection.execute(
                """
                CREATE USER MAPPING IF NOT EXISTS FOR CURRENT_USER SERVER \(server) \
                OPTIONS (user 'postgres', password '\(TestCluster.password)')
                """)
            let (from, to) = Self.bounds[number]
            try connection.execute(
                """
                CREATE FOREIGN TABLE \(table)_\(number + 1) PARTITION OF \(table) FOR VALUES FROM (\(from)) TO (\(to)) \
                SERVER \(server) OPTIONS (table_name '\(table)_\(number + 1)')
                """)
        }
        try connection.execute(
            """
            CREATE TRIGGER \(table)_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table) \
            FOR EACH STATEMENT EXECUTE FUNCTION heatmap_count_change()
            """)
        try connection.execute("INSERT INTO \(table) SELECT lat, lng, weight, x, y, key FROM \(table)_staging")
        try connection.execute("DROP TABLE \(table)_staging, \(table)_staging_cells")
        try connection.execute("ANALYZE \(table)")
    }
}

/// A source that records the queries a layer asks, to look at the SQL sent for them.
final class RecordingSource: WeightSource, Sendable {
    typealias Failure = PostgresError
    let base: PostgresSource
    let queries = Mutex<[WeightQuery]>([])

    init(_ base: PostgresSource) { self.base = base }

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(PostgresError) {
        queries.withLock { $0.append(query) }
        try base.addWeights(of: query, into: &sink)
    }
}
