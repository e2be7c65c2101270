/// The statement-level triggers that hand a table's written rows, as the transition tables
/// `heatmap_old_rows` and `heatmap_new_rows`, to a function: one per kind of write, for the
/// change log (``ChangeLog``) and the live summaries (``LiveSummaries``).
enum StatementTriggers {
    /// The events, each with what its trigger's `REFERENCING` clause names.
    static let events = [
        ("insert", "INSERT", "REFERENCING NEW TABLE AS heatmap_new_rows"),
        ("update", "UPDATE", "REFERENCING OLD TABLE AS heatmap_old_rows NEW TABLE AS heatmap_new_rows"),
        ("delete", "DELETE", "REFERENCING OLD TABLE AS heatmap_old_rows"),
        ("truncate", "TRUNCATE", ""),
    ]

    /// The suffixes of the triggers' names for `infix`: `_<infix>_insert` … `_<infix>_truncate`.
    static func suffixes(infix: String) -> [String] { events.map { "_\(infix)_\($0.0)" } }

    /// (Re)creates on `table` (quoted) the triggers `<prefix>_<infix>_insert`, `_update`,
    /// `_delete` and `_truncate` (see ``ObjectNames``), each `AFTER` its event `FOR EACH
    /// STATEMENT`, calling `call` (a function of HeatmapKit's and its arguments, as SQL). Any
    /// other trigger of the table calling that function goes first (one made under the names
    /// of an earlier version, which a long table name made different), so that none runs twice.
    static func install(
        on table: String, prefix: String, infix: String, call: String, connection: PostgresConnection
    ) throws(PostgresError) {
        let function = String(call.prefix { $0 != "(" }) + "()"
        let others = try connection.execute(
            """
            SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal \
            AND tgfoid = to_regprocedure($2)
            """, [table, function])
        for row in 0..<others.rowCount {
            guard let name = others.text(row, 0) else { continue }
            try connection.execute("DROP TRIGGER \(MadeObject.quoted(name)) ON \(table)")
        }
        for ((_, event, referencing), suffix) in zip(events, suffixes(infix: infix)) {
            try connection.execute(
                "CREATE TRIGGER \(MadeObject.quoted(prefix + suffix)) AFTER \(event) ON \(table) \(referencing) "
                    + "FOR EACH STATEMENT EXECUTE FUNCTION \(call)")
        }
    }
}
