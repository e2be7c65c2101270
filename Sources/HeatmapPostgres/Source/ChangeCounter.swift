/// The change counter `import` installs: a statement trigger on the table adds 1 to the
/// table's row of `heatmap_versions` in the writer's own transaction, so the new count is seen
/// exactly when the rows it counts are (a sequence would be seen before the commit).
enum ChangeCounter {
    /// The counts' table and the trigger function, shared by every table.
    static let sharedStatements = [
        """
        CREATE TABLE IF NOT EXISTS heatmap_versions (table_name text PRIMARY KEY, version bigint NOT NULL)
        """,
        """
        CREATE OR REPLACE FUNCTION heatmap_count_change() RETURNS trigger LANGUAGE plpgsql AS $heatmap$
        BEGIN
            INSERT INTO heatmap_versions AS v VALUES (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, 1)
            ON CONFLICT (table_name) DO UPDATE SET version = v.version + 1;
            RETURN NULL;
        END $heatmap$
        """,
    ]

    /// The trigger that counts the changes of the table `quoted`.
    static func triggerStatement(table quoted: String, trigger: String) -> String {
        """
        CREATE TRIGGER \(trigger) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(quoted)
        FOR EACH STATEMENT EXECUTE FUNCTION heatmap_count_change()
        """
    }
}

extension PostgresSource {
    /// The table's change count, or `nil` when the table has none (a plain table `import` did
    /// not make): it grows with every statement that changes the rows, at its commit.
    public func changeCount() throws(PostgresError) -> Int64? {
        try pool.with { (connection) throws(PostgresError) in try changeCount(on: connection) }
    }

    /// The change count as `connection` sees it (in its transaction's snapshot, if any).
    func changeCount(on connection: PostgresConnection) throws(PostgresError) -> Int64? {
        let result = try connection.execute(
            """
            SELECT v.version FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN heatmap_versions v ON v.table_name = n.nspname || '.' || c.relname
            WHERE c.oid = to_regclass($1) AND to_regclass('heatmap_versions') IS NOT NULL
            """, [layout.table])
        return result.rowCount == 0 ? nil : result.text(0, 0).flatMap { Int64($0) }
    }
}
