/// Cell summaries for a table sharded over several servers (`import --shard`): each shard
/// keeps the summaries of its own rows (`T_cells`, built as on one server, and kept exact by
/// the same triggers, see ``LiveSummaries``, when the coordinator writes rows through
/// `postgres_fdw`: their statements run on the shard), and the coordinator's `T_cells` is a
/// table partitioned like `T`, by the Z-order prefix of the cell's rows
/// (`(key << 2 * level) >> 56`), whose partitions are foreign tables on the shards' `T_cells`.
/// A cell of a summary level (24 at most) lies inside one level-28 cell of the prefix, so
/// inside one shard: each pixel comes from one shard's row, nothing is summed on the
/// coordinator, and each shard's scan ships its `WHERE` (level, columns, rows, key ranges) in
/// its Remote SQL. The coordinator records the coarsest of the shards' finest levels (each
/// shard holds every level from its own) in `heatmap_summaries`. Every write to a shard's
/// rows, through the coordinator or on the shard, runs the shard's triggers in its own
/// transaction, so the shards' summaries are always those of their rows: a tile at a
/// summarised level reads them alone, with no freshness check (which, a one-time filter on
/// the coordinator, would stop `postgres_fdw` from shipping the rows' `GROUP BY`).
enum ShardSummaries {
    /// On a shard, inside the load's transaction after the copy: the change counter and the
    /// summaries of the shard's rows, with their triggers; returns the finest level built
    /// (25 for none).
    static func build(
        table: String, quoted: String, names: ObjectNames, rows: Int, on connection: PostgresConnection
    ) throws(PostgresError) -> Int {
        // Two imports replacing the shared functions at once collide: one at a time, until commit.
        try connection.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
        for statement in ChangeCounter.sharedStatements + [CellSummaries.sharedStatement] {
            try connection.execute(statement)
        }
        try connection.execute(
            ChangeCounter.triggerStatement(table: quoted, trigger: MadeObject.quoted(names.name("_changes"))))
        let name =
            try connection.execute(
                "SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    + "WHERE c.oid = to_regclass($1)", [quoted]
            ).text(0, 0) ?? names.base
        try CellSummaries.build(
            table: quoted, cells: names.quoted("_cells"), name: name, rows: rows, prefix: names.prefix,
            preparable: true, on: connection)
        // The shard's change log, which the coordinator gathers (see ShardChangeLog).
        try ShardChangeLog.install(table: quoted, name: name, prefix: names.prefix, on: connection)
        // postgres_fdw's sessions search pg_catalog alone: the triggers' functions keep this path.
        for function in ["heatmap_count_change()", "heatmap_cells_change()", "heatmap_log_change()"] {
            try connection.execute("ALTER FUNCTION \(function) SET search_path FROM CURRENT")
        }
        let finest = try connection.execute("SELECT finest FROM heatmap_summaries WHERE table_name = $1", [name])
        return finest.text(0, 0).flatMap { Int($0) } ?? CellSummaries.levels.upperBound + 1
    }

    /// The coordinator's statements, after its table's (``PostgresShardedImport/coordinatorStatements(table:names:shards:layout:mode:encoding:)``):
    /// the partitioned `T_cells` over the shards' summaries (each shard's named as the shard
    /// derived it, `shardCells`), and the summaries' row (their finest level the coarsest of
    /// `finest`, the shards').
    static func coordinatorStatements(
        table: String, names: ObjectNames, layout: ShardLayout, finest: [Int], shardCells: [String],
        encoding: ServerEncoding
    ) -> [String] {
        let q = PostgresConnection.quoted(identifier:)
        let cells = names.quoted("_cells")
        var statements = [
            "DROP TABLE IF EXISTS \(cells)",
            """
            CREATE TABLE \(cells) (level int2 NOT NULL, key int8 NOT NULL, x int8 NOT NULL, y int8 NOT NULL, \
            weight float8 NOT NULL, rows int8 NOT NULL DEFAULT 0) \
            PARTITION BY RANGE (((key << (2 * level)) >> \(ShardLayout.shift)))
            """,
        ]
        for index in finest.indices {
            let server = MadeObject.quoted(ObjectNames.server(of: table, shard: index + 1, encoding: encoding))
            let partition = names.quoted("_cells_shard\(index + 1)")
            let (from, to) = layout.bounds(of: index)
            let remote =
                (names.schema.map { [("schema_name", $0)] } ?? []) + [("table_name", shardCells[index])]
            statements.append(
                """
                CREATE FOREIGN TABLE \(partition) PARTITION OF \(cells) FOR VALUES FROM (\(from)) TO (\(to)) \
                SERVER \(server) OPTIONS (\(PostgresShardedImport.list(remote)))
                """)
        }
        let coarsest = finest.max() ?? CellSummaries.levels.upperBound + 1
        statements += [
            """
            INSERT INTO heatmap_summaries AS s SELECT n.nspname || '.' || c.relname, \
            coalesce((SELECT version FROM heatmap_versions WHERE table_name = n.nspname || '.' || c.relname), 0), \
            \(coarsest) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass('\(q(table).replacing("'", with: "''"))') \
            ON CONFLICT (table_name) DO UPDATE SET version = excluded.version, finest = excluded.finest
            """
        ]
        return statements
    }
}
