extension PostgresSource {
    /// Whether the table is a view (`CREATE VIEW`): it cannot take the index that
    /// ``suggestedIndex`` names, and its rows are read through it whole for every tile.
    ///
    /// - Throws: ``PostgresError`` when the database fails.
    package func isView() throws(PostgresError) -> Bool {
        let result = try pool.with { (connection) throws(PostgresError) in
            try connection.execute("SELECT relkind::text FROM pg_class WHERE oid = to_regclass($1)", [layout.table])
        }
        return result.text(0, 0) == "v"
    }
}
