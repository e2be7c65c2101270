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

    /// (Re)creates on `table` (quoted) the triggers `T_<infix>_insert`, `_update`, `_delete` and
    /// `_truncate`, each `AFTER` its event `FOR EACH STATEMENT`, calling `call` (a function
    /// and its arguments, as SQL).
    static func install(on table: String, infix: String, call: String, connection: PostgresConnection)
        throws(PostgresError)
    {
        let base = String(table.split(separator: ".").last ?? Substring(table)).dropFirst().dropLast()
            .replacing("\"\"", with: "\"")
        for (suffix, event, referencing) in events {
            let trigger = PostgresConnection.quoted(identifier: base + "_" + infix + "_" + suffix)
            try connection.execute("DROP TRIGGER IF EXISTS \(trigger) ON \(table)")
            try connection.execute(
                "CREATE TRIGGER \(trigger) AFTER \(event) ON \(table) \(referencing) FOR EACH STATEMENT "
                    + "EXECUTE FUNCTION \(call)")
        }
    }
}
