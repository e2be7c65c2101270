/// The change log of a table sharded over several servers (`import --shard`), so that a change
/// made through the coordinator drops only the tiles it reaches, as on one server.
///
/// The coordinator cannot log the rows itself: PostgreSQL does not collect transition tables
/// from foreign partitions (`cannot collect transition tuples from child foreign tables`). So
/// each shard logs its own: its table carries ``ChangeLog``'s triggers, which record the cells
/// of every statement `postgres_fdw` runs there into the shard's `heatmap_changes`, under the
/// shard's change count. The coordinator reads each shard's log through a foreign table
/// (`T_log_shardN`), and its own statement trigger (`T_log_shards`, after the counter's
/// `T_changes`) copies the shard rows it has not yet copied (newer than the shard count it
/// recorded in `heatmap_shard_logs`) into the coordinator's `heatmap_changes` under the
/// coordinator's change count. That read runs in the same remote transaction as the
/// statement's writes, so it sees the shard's rows before they commit. The coordinator's change
/// count stays the one a server watches, and ``PostgresSource/changes(after:through:)`` reads
/// its log as on one server. A row copied twice (written on a shard directly, then copied with
/// the next coordinator statement) only drops a tile more. The coordinator prunes its log as
/// ``ChangeLog`` does; each shard prunes its own.
enum ShardChangeLog {
    /// The coordinator's trigger function; its arguments are the shards' log foreign tables.
    static let gatherFunction = """
        CREATE OR REPLACE FUNCTION heatmap_gather_changes() RETURNS trigger LANGUAGE plpgsql AS $heatmap$
        DECLARE
            the_name text := TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME;
            the_version bigint;
            the_log text;
            the_seen bigint;
            the_newest bigint;
        BEGIN
            \(ChangeLog.functionStart)
            FOREACH the_log IN ARRAY TG_ARGV LOOP
                SELECT seen INTO the_seen FROM heatmap_shard_logs WHERE table_name = the_name AND log = the_log
                FOR UPDATE;
                the_seen := coalesce(the_seen, 0);
                EXECUTE format('SELECT max(version) FROM %s WHERE table_name = $1 AND version > $2', the_log)
                INTO the_newest USING the_name, the_seen;
                CONTINUE WHEN the_newest IS NULL;
                EXECUTE format('INSERT INTO heatmap_changes SELECT DISTINCT $1, $2, removed, level, x, y FROM %s '
                    || 'WHERE table_name = $1 AND version > $3 AND version <= $4', the_log)
                USING the_name, the_version, the_seen, the_newest;
                INSERT INTO heatmap_shard_logs AS s VALUES (the_name, the_log, the_newest)
                ON CONFLICT (table_name, log) DO UPDATE SET seen = greatest(s.seen, excluded.seen);
            END LOOP;
            \(ChangeLog.functionPrune)
            RETURN NULL;
        END $heatmap$
        """

    /// On a shard, in the load's transaction after its change counter: the log's triggers on
    /// the shard's table (`quoted`, schema-qualified `name`, derived names' `prefix`), complete
    /// from the current count.
    static func install(table quoted: String, name: String, prefix: String, on connection: PostgresConnection)
        throws(PostgresError)
    {
        try ChangeLog.install(table: quoted, name: name, prefix: prefix, on: connection)
    }

    /// The coordinator's statements, after the partitioned table's and the shards' servers
    /// (`T_shardN`, see ``PostgresShardedImport/coordinatorStatements(table:names:shards:layout:mode:encoding:)``):
    /// a foreign table a shard's log (its `heatmap_changes`), then ``coordinatorStatements(table:names:logs:)``.
    static func coordinatorStatements(table: String, names: ObjectNames, shards: Int, encoding: ServerEncoding)
        -> [String]
    {
        let logs = (0..<shards).map { index in
            ShardLog(
                server: MadeObject.quoted(ObjectNames.server(of: table, shard: index + 1, encoding: encoding)),
                options: [("table_name", "heatmap_changes")])
        }
        return coordinatorStatements(table: table, names: names, logs: logs)
    }

    /// Where a shard's log is read from: the coordinator's foreign server (quoted) and the
    /// foreign table's options (the shard's `heatmap_changes`, or a view of it).
    struct ShardLog {
        var server: String
        var options: [(keyword: String, value: String)]
    }

    /// The coordinator's statements: the log tables, a foreign table `T_log_shardN` each shard's
    /// log, the trigger that gathers them, the change count raised by one (so that the table
    /// has one from the start, as on one server), the log complete from that count, and a row
    /// of `heatmap_shard_logs` a shard, from which a server polls the shards for rows written
    /// on them directly (see ``PostgresSource/gatherShardChanges()``).
    static func coordinatorStatements(table: String, names: ObjectNames, logs shardLogs: [ShardLog]) -> [String] {
        let q = PostgresConnection.quoted(identifier:)
        let quoted = q(table)
        let literal = { (text: String) in "'" + text.replacing("'", with: "''") + "'" }
        let name = """
            (SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE c.oid = to_regclass(\(literal(quoted))))
            """
        var statements =
            ["SELECT pg_advisory_xact_lock(\(PositionSQL.lock))"] + ChangeCounter.sharedStatements
            + ChangeLog.sharedStatements
        statements += [
            """
            CREATE TABLE IF NOT EXISTS heatmap_shard_logs (table_name text NOT NULL, log text NOT NULL, \
            seen bigint NOT NULL, PRIMARY KEY (table_name, log))
            """,
            gatherFunction,
            gatherCallStatement,
        ]
        var logs: [String] = []
        for (index, shardLog) in shardLogs.enumerated() {
            let log = names.quoted("_log_shard\(index + 1)")
            logs.append(log)
            statements += [
                "DROP FOREIGN TABLE IF EXISTS \(log)",
                """
                CREATE FOREIGN TABLE \(log) (table_name text, version bigint, removed bool, level int2, x int8, y int8) \
                SERVER \(shardLog.server) OPTIONS (\(PostgresShardedImport.list(shardLog.options)))
                """,
            ]
        }
        let trigger = MadeObject.quoted(names.name("_log_shards"))
        statements += [
            "DROP TRIGGER IF EXISTS \(trigger) ON \(quoted)",
            """
            CREATE TRIGGER \(trigger) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(quoted) \
            FOR EACH STATEMENT EXECUTE FUNCTION heatmap_gather_changes(\(logs.map(literal).joined(separator: ", ")))
            """,
            // The import counts as a change, as one server's COPY does: the table has a count from the start.
            """
            INSERT INTO heatmap_versions AS v VALUES (\(name), 1) \
            ON CONFLICT (table_name) DO UPDATE SET version = v.version + 1
            """,
            "DELETE FROM heatmap_changes WHERE table_name = \(name)",
            "DELETE FROM heatmap_shard_logs WHERE table_name = \(name)",
        ]
        statements += logs.map { log in
            "INSERT INTO heatmap_shard_logs VALUES (\(name), \(literal(log)), 0)"
        }
        statements += [
            """
            INSERT INTO heatmap_change_logs AS l SELECT \(name), coalesce((SELECT version FROM heatmap_versions \
            WHERE table_name = \(name)), 0) ON CONFLICT (table_name) DO UPDATE SET complete_after = excluded.complete_after
            """
        ]
        return statements
    }
}
