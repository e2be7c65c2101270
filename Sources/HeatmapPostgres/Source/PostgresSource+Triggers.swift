/// The triggers that keep an imported table's tiles live (see ``PostgresSource/missingTriggers()``).
extension PostgresSource {
    /// The events of a trigger's `tgtype` bits, in order.
    static let triggerEvents = [(4, "INSERT"), (16, "UPDATE"), (8, "DELETE"), (32, "TRUNCATE")]

    /// What is missing of the triggers that `import` puts on the table, so that a running
    /// `serve` sees its rows change (empty when all are there, and for a table `import` did not
    /// make): each as `heatmap_log_change() AFTER UPDATE`, or a counter that no longer fires
    /// before the log and summaries of an event (triggers of one event fire in name order).
    /// The position trigger (`BEFORE INSERT`, `BEFORE UPDATE`) of a table of one server, the
    /// change counter always, the change log and the summaries' triggers when the table has a
    /// log and summaries, and a sharded table's gathering trigger when it has shard logs. A
    /// disabled trigger counts as missing.
    package func missingTriggers() throws(PostgresError) -> [String] {
        guard layout.imported else { return [] }
        return try pool.with { (connection) throws(PostgresError) in
            let state = try connection.execute(
                """
                SELECT (SELECT relkind::text FROM pg_class WHERE oid = to_regclass($1)), \
                to_regclass('heatmap_change_logs') IS NOT NULL, to_regclass('heatmap_shard_logs') IS NOT NULL
                """, [layout.table])
            let partitioned = state.text(0, 0) == "p"
            /// Whether `table` (existing) holds a row for this table.
            func recorded(in table: String) throws(PostgresError) -> Bool {
                try connection.execute("SELECT count(*) FROM \(table) WHERE table_name = $1", [layout.qualifiedName])
                    .text(0, 0) != "0"
            }
            let logged = state.text(0, 1) == "t" ? try recorded(in: "heatmap_change_logs") : false
            let gathered = state.text(0, 2) == "t" ? try recorded(in: "heatmap_shard_logs") : false
            let found = try connection.execute(
                """
                SELECT t.tgname, p.proname, t.tgtype, t.tgenabled::text FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid \
                WHERE t.tgrelid = to_regclass($1) AND NOT t.tgisinternal ORDER BY convert_to(t.tgname, 'UTF8')
                """, [layout.table])
            var triggers: [(name: String, function: String, type: Int)] = []
            for row in 0..<found.rowCount where found.text(row, 3) != "D" {
                guard let name = found.text(row, 0), let function = found.text(row, 1),
                    let type = found.text(row, 2).flatMap({ Int($0) })
                else { continue }
                triggers.append((name, function, type))
            }
            var expected: [(function: String, row: Bool, events: [String])] = [
                ("heatmap_count_change", false, Self.triggerEvents.map(\.1))
            ]
            if !partitioned { expected.append(("heatmap_fill_position", true, ["INSERT", "UPDATE"])) }
            if logged, !partitioned { expected.append(("heatmap_log_change", false, Self.triggerEvents.map(\.1))) }
            if layout.summaries != nil { expected.append(("heatmap_cells_change", false, Self.triggerEvents.map(\.1))) }
            if gathered, partitioned {
                expected.append(("heatmap_gather_changes", false, Self.triggerEvents.map(\.1)))
            }
            var missing: [String] = []
            for (function, row, events) in expected {
                for (bit, event) in Self.triggerEvents where events.contains(event) {
                    let present = triggers.contains {
                        $0.function == function && $0.type & bit != 0 && ($0.type & 1 != 0) == row
                    }
                    if !present { missing.append("\(function)() \(row ? "BEFORE" : "AFTER") \(event)") }
                }
            }
            // The counter first among the statement triggers of each event (name order).
            for (bit, event) in Self.triggerEvents {
                let statement = triggers.filter { $0.type & bit != 0 && $0.type & 1 == 0 }
                if let first = statement.first, first.function != "heatmap_count_change",
                    statement.contains(where: { $0.function == "heatmap_count_change" })
                {
                    missing.append("heatmap_count_change() first AFTER \(event) (\(first.name) fires before it)")
                }
            }
            return missing
        }
    }
}
