import HeatmapKit

/// Loads points into a table sharded over several PostgreSQL servers (`import --shard`): on
/// each shard the table ``PostgresImport`` makes (its rows only, by binary `COPY` straight
/// to the shard, a B-tree on `key`), and on the coordinator a table of the same columns
/// partitioned by `RANGE ((key >> 56))` whose partitions are `postgres_fdw` foreign tables
/// on the shards (see ``ShardLayout``), with the change counter and cell summaries (see
/// ``ShardSummaries``). The source then draws from the coordinator, each shard summing its
/// own rows per pixel.
///
/// It streams: every shard's `COPY` stays open while the rows are routed to their shard by
/// the key's prefix, a chunk at a time, so memory stays bounded whatever the number of rows.
/// Each shard loads in one transaction, committed in two phases when the shards allow
/// prepared transactions (see ``ShardedLoad`` for what a failure leaves).
///
/// The shards' connection strings go into the coordinator's catalog (`CREATE SERVER` with
/// their host, port, dbname and other options, `CREATE USER MAPPING` with their user and
/// password), since the coordinator connects to the shards itself.
package enum PostgresShardedImport {
    /// Loads `points` into `table` over `shards` (at least one, at most 256) through the
    /// `coordinator`; ``PostgresImport/Mode/create`` refuses a table that exists on any
    /// server, ``PostgresImport/Mode/replace`` drops it (``PostgresImport/Mode/append`` is
    /// ``PostgresImport/run(points:into:connection:mode:progress:)`` on the coordinator).
    /// `progress` hears the rows sent so far and the total after each chunk.
    ///
    /// - Throws: ``PostgresError``; see ``ShardedLoad`` for what a failure leaves behind.
    package static func run(
        points: [WeightedLatLng], into table: String, coordinator: ConnectionString, shards: [ConnectionString],
        mode: PostgresImport.Mode, progress: ((_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws(PostgresError) -> PostgresImport.Summary {
        try run(
            points: points, into: table, coordinator: coordinator, shards: shards, mode: mode, twoPhase: true,
            progress: progress)
    }

    /// ``run(points:into:coordinator:shards:mode:progress:)``, with `twoPhase: false` committing
    /// each shard before the coordinator even where they allow prepared transactions.
    static func run(
        points: [WeightedLatLng], into table: String, coordinator: ConnectionString, shards: [ConnectionString],
        mode: PostgresImport.Mode, twoPhase: Bool, progress: ((_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws(PostgresError) -> PostgresImport.Summary {
        let start = ContinuousClock.now
        try checkCount(shards)
        var counts = ShardLayout.emptyCounts
        for point in points { ShardLayout.count(point, in: &counts) }
        let load = try ShardedLoad(
            table: table, coordinator: coordinator, shards: shards,
            layout: ShardLayout(shards: shards.count, counts: counts), mode: mode, twoPhase: twoPhase)
        var next = 0
        while next < points.count {
            let end = min(points.count, next + (1 << 15))
            try load.append(points[next..<end])
            next = end
            progress?(next, points.count)
        }
        let rows = try load.finish()
        return PostgresImport.Summary(rows: rows, duration: ContinuousClock.now - start)
    }

    /// Refuses a number of shards outside 1...256.
    static func checkCount(_ shards: [ConnectionString]) throws(PostgresError) {
        guard (1...256).contains(shards.count) else {
            throw .invalidAnswer("a sharded table needs 1 to 256 shards, not \(shards.count)")
        }
    }

    /// Whether the table `quoted` exists on the connection's server.
    static func exists(_ quoted: String, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).text(0, 0) == "t"
    }
}
