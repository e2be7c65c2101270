import HeatmapKit

/// Loads points into a table sharded over several PostgreSQL servers (`import --shard`): on
/// each shard the table ``PostgresImport`` makes (its rows only, by binary `COPY` straight
/// to the shard, a B-tree on `key`), and on the coordinator a table of the same columns
/// partitioned by `RANGE ((key >> 56))` whose partitions are `postgres_fdw` foreign tables
/// on the shards (see ``ShardLayout``), with the change counter and cell summaries (see ``ShardSummaries``). The
/// source then draws from the coordinator, each shard summing its own rows per pixel.
///
/// The shards' connection strings go into the coordinator's catalog (`CREATE SERVER` with
/// their host, port, dbname and other options, `CREATE USER MAPPING` with their user and
/// password), since the coordinator connects to the shards itself.
public enum PostgresShardedImport {
    /// Loads `points` into `table` over `shards` (at least one, at most 256) through the
    /// `coordinator`; ``PostgresImport/Mode/create`` refuses a table that exists on any
    /// server, ``PostgresImport/Mode/replace`` drops it (``PostgresImport/Mode/append`` is
    /// ``PostgresImport/run(points:into:connection:mode:progress:)`` on the coordinator).
    ///
    /// Each shard's rows are committed before the coordinator's tables are made; a failure
    /// between the commits leaves those shards' tables behind, which `replace` drops.
    public static func run(
        points: [WeightedLatLng], into table: String, coordinator: ConnectionString, shards: [ConnectionString],
        mode: PostgresImport.Mode, progress: ((_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws(PostgresError) -> PostgresImport.Summary {
        let start = ContinuousClock.now
        guard (1...256).contains(shards.count) else {
            throw .invalidAnswer("a sharded table needs 1 to 256 shards, not \(shards.count)")
        }
        let keys = points.map { point in
            let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
            let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
            return Int64(bitPattern: KeyRanges.key(x: x, y: y))
        }
        let layout = ShardLayout(shards: shards.count, keys: keys)
        var parts = [[WeightedLatLng]](repeating: [], count: shards.count)
        for (point, key) in zip(points, keys) { parts[layout.shard(of: key)].append(point) }
        let connection = try PostgresConnection(coordinator)
        let quoted = PostgresConnection.quoted(identifier: table)
        try PositionSQL.install(
            on: connection,
            extra: ChangeCounter.sharedStatements + [
                PostgresImport.fillPositionFunction, CellSummaries.sharedStatement,
                "CREATE EXTENSION IF NOT EXISTS postgres_fdw",
            ])
        if mode == .create {
            // Every server first, so that a refusal leaves nothing behind.
            if try exists(quoted, on: connection) { throw .tableExists(table) }
            for shard in shards where try exists(quoted, on: PostgresConnection(shard)) {
                throw .tableExists("\(table) (on shard \(shard))")
            }
        }
        var sent = 0
        var finest: [Int] = []
        for (shard, rows) in zip(shards, parts) {
            finest.append(
                try load(rows, into: table, on: shard, mode: mode) { done, _ in progress?(sent + done, points.count) })
            sent += rows.count
        }
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            for statement in try coordinatorStatements(table: table, shards: shards, layout: layout, mode: mode)
                + ShardSummaries.coordinatorStatements(table: table, layout: layout, finest: finest)
            {
                try connection.execute(statement)
            }
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
        try connection.execute("ANALYZE \(quoted)")
        return PostgresImport.Summary(rows: points.count, duration: ContinuousClock.now - start)
    }

    /// Makes the shard's table (the one `import` makes, with its position triggers for rows
    /// inserted on the shard) and copies its rows, and builds its summaries (see
    /// ``ShardSummaries``), in one transaction; returns their finest level.
    @discardableResult
    static func load(
        _ points: [WeightedLatLng], into table: String, on shard: ConnectionString, mode: PostgresImport.Mode,
        progress: @escaping (Int, Int) -> Void
    ) throws(PostgresError) -> Int {
        let connection = try PostgresConnection(shard)
        let quoted = PostgresConnection.quoted(identifier: table)
        try PositionSQL.install(on: connection, extra: [PostgresImport.fillPositionFunction])
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            if try exists(quoted, on: connection) {
                guard mode == .replace else { throw .tableExists("\(table) (on shard \(shard))") }
                try connection.execute("DROP TABLE \(quoted)")
            }
            let base = PostgresTable(name: table).baseName
            for statement in PostgresImport.createStatements(quoted, base: base) { try connection.execute(statement) }
            let copied = try copy(points, into: quoted, on: connection, progress: progress)
            // As `import` makes it on one server: a B-tree holding x, y and weight, for index-only scans.
            try connection.execute(
                "CREATE INDEX \(PostgresConnection.quoted(identifier: base + "_key")) ON \(quoted) (key) INCLUDE (x, y, weight)"
            )
            let finest = try ShardSummaries.build(
                table: table, quoted: quoted, base: base, rows: copied, on: connection)
            try connection.execute("COMMIT")
            try connection.execute("VACUUM (ANALYZE) \(quoted)")
            return finest
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Whether the table `quoted` exists on the connection's server.
    static func exists(_ quoted: String, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).text(0, 0) == "t"
    }

    /// Copies `points` into `quoted` by binary `COPY`, with the fixed-point position and key
    /// the index gives them; returns the rows the server copied.
    static func copy(
        _ points: [WeightedLatLng], into quoted: String, on connection: PostgresConnection,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(PostgresError) -> Int {
        var next = 0
        var headerSent = false
        var trailerSent = false
        return try connection.copyIn("COPY \(quoted) (lat, lng, weight, x, y, key) FROM STDIN (FORMAT binary)") {
            chunk in
            if !headerSent {
                chunk.append(contentsOf: CopyEncoder.header)
                headerSent = true
            }
            while next < points.count, chunk.count < 1 << 20 {
                let point = points[next]
                let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
                let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
                CopyEncoder.append(
                    latitude: point.coordinate.latitude, longitude: point.coordinate.longitude,
                    weight: Float(point.intensity), x: x, y: y, key: KeyRanges.key(x: x, y: y), to: &chunk)
                next += 1
            }
            progress?(next, points.count)
            if next == points.count, !trailerSent {
                chunk.append(contentsOf: CopyEncoder.trailer)
                trailerSent = true
            }
            return !trailerSent
        }
    }
}
