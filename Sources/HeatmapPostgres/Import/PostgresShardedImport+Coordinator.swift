extension PostgresShardedImport {
    /// The coordinator's statements: the shards' servers and user mappings (made afresh: a
    /// server of that name is HeatmapKit's, checked before, see ``ImportObjects``), the
    /// partitioned table (with the columns of `fields`, which the foreign partitions read by
    /// name from the shards' tables), a foreign partition a shard, and the change counter's trigger.
    static func coordinatorStatements(
        table: String, names: ObjectNames, shards: [ConnectionString], layout: ShardLayout, mode: PostgresImport.Mode,
        fields: ImportedFields = .init(), encoding: ServerEncoding
    ) throws(PostgresError) -> [String] {
        let q = PostgresConnection.quoted(identifier:)
        let quoted = q(table)
        var statements = mode == .replace ? ["DROP TABLE IF EXISTS \(quoted)"] : []
        let extra = fields.definitionsAfterPositions
        statements.append(
            """
            CREATE TABLE \(quoted) (
                lat float8 NOT NULL CHECK (lat BETWEEN -90 AND 90),
                lng float8 NOT NULL CHECK (lng > '-Infinity' AND lng < 'Infinity'),
                weight real NOT NULL DEFAULT 1 CHECK (weight >= 0 AND weight < 'Infinity'),
                x int8 NOT NULL, y int8 NOT NULL, key int8 NOT NULL\(extra)
            ) PARTITION BY RANGE (\(PostgresSource.partitionKey(shift: ShardLayout.shift)))
            """)
        for (index, shard) in shards.enumerated() {
            guard let options = shard.options else {
                throw .connectionFailed(target: shard.description, reason: "libpq cannot parse this connection string")
            }
            let server = MadeObject.quoted(ObjectNames.server(of: table, shard: index + 1, encoding: encoding))
            let partition = names.quoted("_shard\(index + 1)")
            let login = options.filter { ["user", "password"].contains($0.keyword) }
            let rest = options.filter { !["user", "password"].contains($0.keyword) } + [("batch_size", "1000")]
            let (from, to) = layout.bounds(of: index)
            let remote = (names.schema.map { [("schema_name", $0)] } ?? []) + [("table_name", names.base)]
            statements += [
                "DROP SERVER IF EXISTS \(server) CASCADE",
                "CREATE SERVER \(server) FOREIGN DATA WRAPPER postgres_fdw OPTIONS (\(list(rest)))",
                "CREATE USER MAPPING FOR CURRENT_USER SERVER \(server)"
                    + (login.isEmpty ? "" : " OPTIONS (\(list(login)))"),
                """
                CREATE FOREIGN TABLE \(partition) PARTITION OF \(quoted) FOR VALUES FROM (\(from)) TO (\(to)) \
                SERVER \(server) OPTIONS (\(list(remote)))
                """,
            ]
        }
        statements.append(
            ChangeCounter.triggerStatement(table: quoted, trigger: MadeObject.quoted(names.name("_changes"))))
        return statements
    }

    /// `key 'value', …` for an `OPTIONS` clause, the values quoted as SQL strings.
    static func list(_ options: [(keyword: String, value: String)]) -> String {
        options.map { "\($0.keyword) '\($0.value.replacing("'", with: "''"))'" }.joined(separator: ", ")
    }
}
