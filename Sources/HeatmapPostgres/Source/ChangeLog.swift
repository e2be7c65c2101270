/// The change log `import` installs beside the change counter: statement triggers with
/// transition tables record, for every statement that changes the rows, which coarse cells
/// of the world its rows left (`removed`) and reached, under the change count the statement
/// brought (the counter's trigger, `<table>_changes`, fires first: triggers of one event fire
/// in name order). A server that saw count `a` and now sees `b` reads the cells of the
/// counts `a+1...b` and drops only the cached tiles they reach (see
/// ``PostgresSource/changes(after:through:)``).
///
/// Each side of a statement is logged at the finest of the levels 12, 16, 20, 24, 28 (cells
/// of 2^level fixed-point units, 2^12 being under a pixel up to zoom 20) at which it holds at
/// most 4,096 distinct cells, so that a statement logs at most 8,192 rows. `TRUNCATE` logs
/// the whole world (level 32). Every 64th count the log drops the rows older than 1,024
/// counts and raises `heatmap_change_logs.complete_after`, the count after which the log is
/// complete; a server further behind swaps in a whole new version instead.
enum ChangeLog {
    /// The log's tables, shared by every table.
    static let sharedStatements = [
        """
        CREATE TABLE IF NOT EXISTS heatmap_changes (table_name text NOT NULL, version bigint NOT NULL, \
        removed bool NOT NULL, level int2 NOT NULL, x int8, y int8)
        """,
        // Only when it is missing: `CREATE INDEX IF NOT EXISTS` takes a SHARE lock on the table
        // even when the index exists, and the installer holds the advisory lock while a writer of
        // an imported table (an `import --append`, a live insert in a transaction), holding a ROW
        // EXCLUSIVE lock on heatmap_changes through its log trigger, may be waiting for it: a
        // deadlock. With the check, nothing under the advisory lock waits on heatmap_changes.
        """
        DO $heatmap$ BEGIN
            IF to_regclass('heatmap_changes_version') IS NULL THEN
                CREATE INDEX heatmap_changes_version ON heatmap_changes (table_name, version);
            END IF;
        END $heatmap$
        """,
        "CREATE TABLE IF NOT EXISTS heatmap_change_logs (table_name text PRIMARY KEY, complete_after bigint NOT NULL)",
    ]

    /// The level logged for the whole world (a `TRUNCATE`).
    static let wholeWorld = 32

    /// The start of a log trigger function's body (this one and ``ShardChangeLog``'s): the
    /// table's change count in `the_version` (nothing to log without one), and the whole world
    /// logged for a `TRUNCATE`.
    static let functionStart = """
        SELECT version INTO the_version FROM heatmap_versions WHERE table_name = the_name;
            IF the_version IS NULL THEN RETURN NULL; END IF;
            IF TG_OP = 'TRUNCATE' THEN
                INSERT INTO heatmap_changes VALUES (the_name, the_version, true, \(wholeWorld), NULL, NULL);
            END IF;
        """

    /// The end of a log trigger function's body: every 64 counts, the log is pruned to the last
    /// 1,024 and `heatmap_change_logs` says from which count on it is complete.
    static let functionPrune = """
        IF the_version % 64 = 0 THEN
                DELETE FROM heatmap_changes WHERE table_name = the_name AND version <= the_version - 1024;
                UPDATE heatmap_change_logs SET complete_after = greatest(complete_after, the_version - 1024)
                WHERE table_name = the_name;
            END IF;
        """

    /// The trigger function, shared by every table.
    static let function = """
        CREATE OR REPLACE FUNCTION heatmap_log_change() RETURNS trigger LANGUAGE plpgsql AS $heatmap$
        DECLARE
            the_name text := TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME;
            the_version bigint;
            the_side text;
            the_level int;
            the_count bigint;
        BEGIN
            \(functionStart)
            FOREACH the_side IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY['new'] WHEN 'DELETE' THEN ARRAY['old']
                WHEN 'UPDATE' THEN ARRAY['old', 'new'] ELSE ARRAY[]::text[] END LOOP
                FOREACH the_level IN ARRAY ARRAY[12, 16, 20, 24, 28] LOOP
                    EXECUTE format('SELECT count(*) FROM (SELECT DISTINCT x >> %1$s, y >> %1$s '
                        || 'FROM heatmap_%2$s_rows WHERE weight > 0 AND x IS NOT NULL AND y IS NOT NULL) d',
                        the_level, the_side) INTO the_count;
                    EXIT WHEN the_count <= 4096;
                END LOOP;
                EXECUTE format('INSERT INTO heatmap_changes SELECT $1, $2, $3, %1$s, x >> %1$s, y >> %1$s '
                    || 'FROM heatmap_%2$s_rows WHERE weight > 0 AND x IS NOT NULL AND y IS NOT NULL GROUP BY 5, 6',
                    the_level, the_side) USING the_name, the_version, the_side = 'old';
            END LOOP;
            \(functionPrune)
            RETURN NULL;
        END $heatmap$
        """

    /// (Re)creates the log's triggers on `table` (quoted; `name` is its schema-qualified name
    /// as the triggers spell it; `prefix` its derived names', see ``ObjectNames``): the log is
    /// complete from the current change count on.
    static func install(table: String, name: String, prefix: String, on connection: PostgresConnection)
        throws(PostgresError)
    {
        // Two imports replacing the shared function at once collide: one at a time, until commit.
        try connection.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
        for statement in sharedStatements + [function] { try connection.execute(statement) }
        try StatementTriggers.install(
            on: table, prefix: prefix, infix: "log", call: "heatmap_log_change()", connection: connection)
        try connection.execute("DELETE FROM heatmap_changes WHERE table_name = $1", [name])
        try connection.execute(
            """
            INSERT INTO heatmap_change_logs AS l SELECT $1, coalesce((SELECT version FROM heatmap_versions \
            WHERE table_name = $1), 0) ON CONFLICT (table_name) DO UPDATE SET complete_after = excluded.complete_after
            """, [name])
    }
}
