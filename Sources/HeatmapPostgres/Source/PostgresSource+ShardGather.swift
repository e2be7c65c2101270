extension PostgresSource {
    /// For a table sharded with a change log (`import --shard`, or `import --attach` on one
    /// sharded by hand): whether a shard's log holds rows the coordinator has not gathered yet
    /// (rows written on the shard directly, which the coordinator's count does not see), and
    /// if so `SELECT heatmap_gather(T)` on the coordinator, which copies them into its log under
    /// a new change count (needs `EXECUTE` on the function; see
    /// ``ShardChangeLog/gatherCallFunction``). Where the function is missing (a table imported
    /// before it) or not granted, an empty statement on the table (`DELETE … WHERE false`), whose
    /// gathering trigger does the same, as before (needs `DELETE`); without either the shards'
    /// rows show with the next statement through the coordinator. ``PostgresChangeWatcher``
    /// calls it before each poll of the count.
    ///
    /// - Returns: whether rows were gathered (the count moved).
    @discardableResult
    package func gatherShardChanges() throws(PostgresError) -> Bool {
        guard layout.imported, layout.partitionShift != nil, !layout.qualifiedName.isEmpty else { return false }
        return try pool.with { (connection) throws(PostgresError) -> Bool in
            let exists = try connection.execute(
                "SELECT to_regclass('heatmap_shard_logs') IS NOT NULL, "
                    + "to_regprocedure('heatmap_gather(regclass)') IS NOT NULL")
            guard exists.text(0, 0) == "t" else { return false }
            if exists.text(0, 1) == "t" {
                do throws(PostgresError) {
                    let gathered = try connection.execute("SELECT heatmap_gather($1::regclass)", [layout.table])
                    return gathered.text(0, 0) == "t"
                } catch .queryFailed(_, "42501"?) {
                    // Not granted EXECUTE: the old way below, for a user granted DELETE.
                }
            }
            return try gatherByStatement(on: connection)
        }
    }

    /// The way before `heatmap_gather`: whether a shard's log is ahead, and if so an empty
    /// `DELETE` on the table for its gathering trigger.
    private func gatherByStatement(on connection: PostgresConnection) throws(PostgresError) -> Bool {
        var parameters: [String?] = [layout.qualifiedName]
        guard let condition = try shardLogsAhead(parameters: &parameters, on: connection).condition else {
            return false
        }
        let pending = try connection.execute("SELECT " + condition, parameters)
        guard pending.text(0, 0) == "t" else { return false }
        try connection.execute("DELETE FROM \(layout.table) WHERE false")
        return true
    }

    /// The SQL condition that a shard's change log holds rows the coordinator has not gathered:
    /// an `EXISTS` on each log `heatmap_shard_logs` names, each log's gathered count appended to
    /// `parameters` (whose `$1` must be the table's qualified name). `condition` is `nil` when
    /// no log is named; `skipped` counts the logs left out, whose name is not a quoted name.
    func shardLogsAhead(parameters: inout [String?], on connection: PostgresConnection) throws(PostgresError) -> (
        condition: String?, skipped: Int
    ) {
        let logs = try connection.execute(
            "SELECT log, seen FROM heatmap_shard_logs WHERE table_name = $1 ORDER BY log", [layout.qualifiedName])
        var checks: [String] = []
        var skipped = 0
        for row in 0..<logs.rowCount {
            guard let log = logs.text(row, 0), Self.isQuotedName(log), let seen = logs.text(row, 1) else {
                skipped += 1
                continue
            }
            parameters.append(seen)
            checks.append(
                "EXISTS (SELECT 1 FROM \(log) WHERE table_name = $1 AND version > $\(parameters.count)::int8)")
        }
        return (checks.isEmpty ? nil : checks.joined(separator: " OR "), skipped)
    }

    /// Whether `text` is one or more double-quoted identifiers joined by dots, as the
    /// coordinator's statements write the logs' names (so it may be put in a statement as is).
    static func isQuotedName(_ text: String) -> Bool {
        var rest = Substring(text)
        while true {
            guard rest.first == "\"" else { return false }
            rest = rest.dropFirst()
            // To the closing quote: `""` is a quote inside.
            while true {
                guard let quote = rest.firstIndex(of: "\"") else { return false }
                rest = rest[rest.index(after: quote)...]
                guard rest.first == "\"" else { break }
                rest = rest.dropFirst()
            }
            if rest.isEmpty { return true }
            guard rest.first == "." else { return false }
            rest = rest.dropFirst()
        }
    }
}
