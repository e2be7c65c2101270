extension PostgresAttach {
    /// The table's partitions, each a `postgres_fdw` foreign table: its remote table (the
    /// `schema_name` and `table_name` options, defaulting to the partition's own) and the
    /// connection `postgres_fdw` makes for it (the server's libpq options and the current
    /// user's mapping, or PUBLIC's).
    static func partitions(of quoted: String, table: String, on connection: PostgresConnection)
        throws(PostgresError) -> [Partition]
    {
        let rows = try connection.execute(
            """
            SELECT c.oid, n.nspname, c.relname, c.relkind, ft.ftserver, s.srvname, w.fdwname \
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace \
            LEFT JOIN pg_foreign_table ft ON ft.ftrelid = c.oid LEFT JOIN pg_foreign_server s ON s.oid = ft.ftserver \
            LEFT JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw \
            WHERE i.inhparent = to_regclass($1) ORDER BY c.relname
            """, [quoted])
        guard rows.rowCount > 0 else { throw .cannotAttach(table: table, reason: "it has no partitions") }
        var partitions: [Partition] = []
        for row in 0..<rows.rowCount {
            let name = (rows.text(row, 1) ?? "") + "." + (rows.text(row, 2) ?? "")
            guard rows.text(row, 3) == "f", let server = rows.text(row, 4), let serverName = rows.text(row, 5),
                rows.text(row, 6) == "postgres_fdw", let oid = rows.text(row, 0)
            else {
                throw .cannotAttach(
                    table: table,
                    reason: "partition \(name) is not a postgres_fdw foreign table (the coordinator cannot log the "
                        + "rows of its partitions; each shard logs its own)")
            }
            let options = try Self.options(
                "SELECT option_name, option_value FROM pg_foreign_table t, pg_options_to_table(t.ftoptions) "
                    + "WHERE t.ftrelid = $1::oid", oid, on: connection)
            let serverOptions = try Self.options(
                "SELECT option_name, option_value FROM pg_foreign_server s, pg_options_to_table(s.srvoptions) "
                    + "WHERE s.oid = $1::oid", server, on: connection)
            let mapping = try Self.options(
                """
                SELECT option_name, option_value FROM pg_user_mappings u, pg_options_to_table(u.umoptions) \
                WHERE u.umid = (SELECT umid FROM pg_user_mappings WHERE srvid = $1::oid \
                AND umuser IN (0, (SELECT oid FROM pg_roles WHERE rolname = current_user)) ORDER BY umuser = 0 LIMIT 1)
                """, server, on: connection)
            let words = (serverOptions + mapping).filter { !wrapperOptions.contains($0.0) }.map { keyword, value in
                keyword + "='" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
            }
            partitions.append(
                Partition(
                    name: name, server: serverName,
                    remoteSchema: options.first { $0.0 == "schema_name" }?.1 ?? rows.text(row, 1) ?? "public",
                    remoteTable: options.first { $0.0 == "table_name" }?.1 ?? rows.text(row, 2) ?? "",
                    conninfo: ConnectionString(words.joined(separator: " "))))
        }
        return partitions
    }

    /// The (name, value) rows of an options query with one parameter.
    static func options(_ sql: String, _ parameter: String, on connection: PostgresConnection) throws(PostgresError)
        -> [(String, String)]
    {
        let result = try connection.execute(sql, [parameter])
        return (0..<result.rowCount).compactMap { row in
            guard let name = result.text(row, 0), let value = result.text(row, 1) else { return nil }
            return (name, value)
        }
    }
}
