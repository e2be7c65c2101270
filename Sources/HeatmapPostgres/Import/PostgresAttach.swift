/// `heatmap import --postgres URL --table T --attach`: gives a table sharded by hand (a
/// coordinator's partitioned table whose partitions are `postgres_fdw` foreign tables, as
/// docs/guides/shards.md's "By hand" makes it) the change log that `import --shard` installs (see
/// ``ShardChangeLog``), so that a server drops only the tiles a change reaches and learns of
/// rows written on a shard directly (see ``PostgresSource/gatherShardChanges()``).
///
/// It reads from the coordinator's catalog, for each partition, its foreign server's options
/// (host, port, dbname, …) and the current user's mapping (user, password), connects to each
/// shard as `postgres_fdw` does and installs there, in one transaction a shard: the change
/// counter and the log's triggers on the partition's remote table, and a view of the shard's
/// log under the coordinator's table name (`<remote>_heatmap_log`). Then, in one transaction
/// on the coordinator: the counter's trigger (`T_changes`, replacing any other trigger that
/// calls `heatmap_count_change()`, so that it fires before the gathering one), a foreign
/// table each view (`T_log_shardN`), the gathering trigger (`T_log_shards`), the count raised
/// by one. Running it again makes the same objects afresh.
package enum PostgresAttach {
    /// What was attached.
    package struct Summary: Sendable, Hashable {
        /// The partitions (one shard table each) whose logs the coordinator gathers.
        package let shards: Int
        /// The table's change count after the attach.
        package let changeCount: Int64
    }

    /// A partition of the table: where its rows are and how the coordinator reaches them.
    struct Partition {
        var name: String
        var server: String
        var remoteSchema: String
        var remoteTable: String
        var conninfo: ConnectionString
    }

    /// The options of `postgres_fdw`'s own that are not libpq's (left out of a shard's connection).
    static let wrapperOptions: Set<String> = [
        "use_remote_estimate", "fdw_startup_cost", "fdw_tuple_cost", "extensions", "updatable", "truncatable",
        "fetch_size", "batch_size", "async_capable", "parallel_commit", "parallel_abort", "keep_connections",
        "analyze_sampling", "password_required",
    ]

    /// Attaches the change log to `table` (sharded by hand) through the coordinator `connection`.
    ///
    /// - Throws: ``PostgresError/tableMissing(_:)``; ``PostgresError/cannotAttach(table:reason:)``
    ///   for a table that is not partitioned over foreign tables or lacks `import`'s columns;
    ///   the connection's and statements' errors (a shard that cannot be reached is named, never
    ///   its password).
    package static func run(table: String, connection conninfo: ConnectionString) throws(PostgresError) -> Summary {
        let coordinator = try PostgresConnection(conninfo)
        let quoted = PostgresConnection.quoted(identifier: table)
        let found = try coordinator.execute(
            """
            SELECT c.relkind, n.nspname || '.' || c.relname FROM pg_class c \
            JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)
            """, [quoted])
        guard found.rowCount == 1, let kind = found.text(0, 0), let name = found.text(0, 1) else {
            throw .tableMissing(table)
        }
        try requireColumns(of: quoted, table: table, on: coordinator)
        guard kind == "p" else {
            throw .cannotAttach(
                table: table,
                reason: "it is not a partitioned table (--attach is for a table partitioned by hand over postgres_fdw "
                    + "foreign tables; import --replace gives a table of one server its log)")
        }
        let partitions = try Self.partitions(of: quoted, table: table, on: coordinator)
        // Every server's names before anything is written on any (see ImportObjects).
        let names = ObjectNames(table: table, encoding: coordinator.serverEncoding)
        try MadeObject.check(coordinatorObjects(names: names, quoted: quoted, partitions: partitions), on: coordinator)
        var shards: [PostgresConnection] = []
        for partition in partitions {
            let shard = try PostgresConnection(partition.conninfo)
            do throws(PostgresError) {
                try MadeObject.check(shardObjects(partition, encoding: shard.serverEncoding), on: shard)
            } catch .notMadeByHeatmapKit(let kind, let name, let found) {
                throw .notMadeByHeatmapKit(
                    kind: kind, name: "\(name) (on the shard of partition \(partition.name))", found: found)
            }
            shards.append(shard)
        }
        for (partition, shard) in zip(partitions, shards) {
            try attachShard(partition, coordinatorName: name, table: table, on: shard)
        }
        try attachCoordinator(
            table: table, quoted: quoted, names: names, partitions: partitions,
            shardEncodings: shards.map(\.serverEncoding), on: coordinator)
        let count = try coordinator.execute("SELECT version FROM heatmap_versions WHERE table_name = $1", [name])
        return Summary(shards: partitions.count, changeCount: count.text(0, 0).flatMap { Int64($0) } ?? 0)
    }

    /// Fails unless the table (or a shard's) has the columns the log reads and tiles need.
    static func requireColumns(of quoted: String, table: String, on connection: PostgresConnection)
        throws(PostgresError)
    {
        let columns = try connection.execute(
            "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped",
            [quoted])
        let names = Set((0..<columns.rowCount).compactMap { columns.text($0, 0) })
        for column in ["lat", "lng", "weight", "x", "y", "key"] where !names.contains(column) {
            throw .cannotAttach(
                table: table,
                reason: "it has no column \(column) (the columns import makes: lat, lng, weight, x, y, key)")
        }
    }

    /// The names derived from a partition's remote table, on its shard.
    static func remoteNames(_ partition: Partition, encoding: ServerEncoding) -> ObjectNames {
        ObjectNames(table: partition.remoteSchema + "." + partition.remoteTable, encoding: encoding)
    }

    /// What `--attach` makes on a partition's shard (see ``ImportObjects``): the counter's and
    /// the log's shared objects, the triggers on the remote table and the view of its log.
    static func shardObjects(_ partition: Partition, encoding: ServerEncoding) -> [MadeObject] {
        let names = remoteNames(partition, encoding: encoding)
        let remote = MadeObject.quoted(partition.remoteSchema) + "." + MadeObject.quoted(partition.remoteTable)
        return ImportObjects.counter + ImportObjects.changeLog
            + (["_changes"] + StatementTriggers.suffixes(infix: "log")).map {
                ImportObjects.trigger(names.name($0), on: remote, what: "trigger of heatmap import --attach")
            } + [ImportObjects.logView(names.quoted("_heatmap_log"), what: "log of \(partition.remoteTable)")]
    }

    /// What `--attach` makes on the coordinator (see ``ImportObjects``): the shared objects, the
    /// foreign tables of the shards' logs and the triggers on the table.
    static func coordinatorObjects(names: ObjectNames, quoted: String, partitions: [Partition]) -> [MadeObject] {
        var objects = ImportObjects.counter + ImportObjects.changeLog + ImportObjects.gathering
        objects += ImportObjects.tables.filter { $0.name == "heatmap_maxima" }
        for (index, partition) in partitions.enumerated() {
            objects.append(
                ImportObjects.foreignTable(
                    names.quoted("_log_shard\(index + 1)"), server: partition.server,
                    what: "log of shard \(index + 1) of \(names.base)"))
        }
        objects += ["_changes", "_log_shards"].map {
            ImportObjects.trigger(names.name($0), on: quoted, what: "trigger of heatmap import --attach")
        }
        return objects
    }

    /// On a shard, in one transaction: the counter and the log on the partition's table, the
    /// functions' search path kept (postgres_fdw's sessions search `pg_catalog` alone), and the
    /// view of its log under the coordinator's name `coordinatorName`; marked as HeatmapKit's.
    static func attachShard(
        _ partition: Partition, coordinatorName: String, table: String, on shard: PostgresConnection
    ) throws(PostgresError) {
        let q = MadeObject.quoted
        let remote = q(partition.remoteSchema) + "." + q(partition.remoteTable)
        let remoteName = partition.remoteSchema + "." + partition.remoteTable
        let names = remoteNames(partition, encoding: shard.serverEncoding)
        try shard.execute("BEGIN")
        do throws(PostgresError) {
            try requireColumns(of: remote, table: "\(remoteName) (partition \(partition.name) of \(table))", on: shard)
            try shard.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
            for statement in ChangeCounter.sharedStatements { try shard.execute(statement) }
            try replaceCounter(on: remote, names: names, connection: shard)
            try ChangeLog.install(table: remote, name: remoteName, prefix: names.prefix, on: shard)
            for function in ["heatmap_count_change()", "heatmap_log_change()"] {
                try shard.execute("ALTER FUNCTION \(function) SET search_path FROM CURRENT")
            }
            try shard.execute(
                """
                CREATE OR REPLACE VIEW \(names.quoted("_heatmap_log")) AS \
                SELECT \(literal(coordinatorName))::text AS table_name, version, removed, level, x, y \
                FROM heatmap_changes WHERE table_name = \(literal(remoteName))
                """)
            for object in shardObjects(partition, encoding: shard.serverEncoding) {
                try shard.execute(object.markStatement)
            }
            try shard.execute("COMMIT")
        } catch {
            if shard.isOK { _ = try? shard.execute("ROLLBACK") }
            throw error
        }
    }

    /// The coordinator's side, in one transaction (see ``ShardChangeLog/coordinatorStatements(table:names:logs:)``).
    static func attachCoordinator(
        table: String, quoted: String, names: ObjectNames, partitions: [Partition], shardEncodings: [ServerEncoding],
        on coordinator: PostgresConnection
    ) throws(PostgresError) {
        // Each shard's view, named as the shard derived it.
        let logs = zip(partitions, shardEncodings).map { partition, encoding in
            ShardChangeLog.ShardLog(
                server: MadeObject.quoted(partition.server),
                options: [
                    ("schema_name", partition.remoteSchema),
                    ("table_name", remoteNames(partition, encoding: encoding).name("_heatmap_log")),
                ])
        }
        try coordinator.execute("BEGIN")
        do throws(PostgresError) {
            try coordinator.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
            for statement in ChangeCounter.sharedStatements + [MaximumStore.createStatement] {
                try coordinator.execute(statement)
            }
            try replaceCounter(on: quoted, names: names, connection: coordinator)
            for statement in ShardChangeLog.coordinatorStatements(table: table, names: names, logs: logs) {
                try coordinator.execute(statement)
            }
            for object in coordinatorObjects(names: names, quoted: quoted, partitions: partitions) {
                try coordinator.execute(object.markStatement)
            }
            try coordinator.execute("COMMIT")
        } catch {
            if coordinator.isOK { _ = try? coordinator.execute("ROLLBACK") }
            throw error
        }
    }

    /// The counter's trigger on `quoted` as `<prefix>_changes` (see ``ObjectNames``), the first
    /// of its statement triggers in name order; other triggers calling the counter are dropped
    /// (each would count a statement again, or after the log read the count).
    static func replaceCounter(on quoted: String, names: ObjectNames, connection: PostgresConnection)
        throws(PostgresError)
    {
        let others = try connection.execute(
            """
            SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass($1) \
            AND tgfoid = 'heatmap_count_change()'::regprocedure AND NOT tgisinternal
            """, [quoted])
        for row in 0..<others.rowCount {
            guard let name = others.text(row, 0) else { continue }
            try connection.execute("DROP TRIGGER \(MadeObject.quoted(name)) ON \(quoted)")
        }
        try connection.execute(
            ChangeCounter.triggerStatement(table: quoted, trigger: MadeObject.quoted(names.name("_changes"))))
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String { "'" + text.replacing("'", with: "''") + "'" }
}
