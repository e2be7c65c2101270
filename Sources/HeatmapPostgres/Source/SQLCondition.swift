/// A table's row condition (`--where`, ``PostgresTable/filter``), raw SQL from a trusted user,
/// kept where it cannot leave its place whatever it holds: it is never put into a statement,
/// nor lexed here. It is the whole body of a temporary SQL function of the row,
/// `pg_temp.heatmap_where_<hash>(col1 type1, col2 type2, …) RETURNS boolean LANGUAGE sql STABLE`,
/// dollar-quoted with a tag the text does not hold, so PostgreSQL parses the text itself, as
/// the body of that function; statements call it with the row's columns, `AND` their own
/// conditions (the tile's key ranges, the change count of the snapshot), which nothing in the
/// text can reach. Its parameters are named for the table's columns, so the condition names
/// them as before (bare: `weight > 2`, not `crimes.weight`), and PostgreSQL inlines a body
/// that is one expression (it then plans the condition as if written in the statement, and an
/// index on a column it names still serves); a body that is not (a sub-select, several
/// statements) runs as a function call a row. `STABLE`: a body that writes (`true); DELETE …;
/// SELECT (true`) is refused by PostgreSQL when the function first runs, which happens once
/// here, at the start.
///
/// A temporary function lives in the session: every connection of a source's pool makes it
/// first (see ``ConnectionPool/addSetup(_:)``). It needs the `TEMP` privilege on the database
/// (PUBLIC has it by default) and a server that accepts writes (a standby does not: a view on
/// the primary holding the condition serves there).
struct RowCondition: Sendable, Hashable {
    /// The `CREATE OR REPLACE FUNCTION` statement.
    var create: String
    /// The function applied to the row's columns, an SQL boolean for statements' `WHERE`.
    var call: String
}

enum SQLCondition {
    /// The most parameters a function takes (PostgreSQL's `FUNC_MAX_ARGS`).
    static let maximumParameters = 100

    /// Makes the function of `filter` on `table` (quoted) on `connection`, runs it once, and
    /// returns it; `nil` for no filter.
    ///
    /// - Throws: ``PostgresError/invalidFilter(filter:reason:)`` with PostgreSQL's message when
    ///   the text is not one condition on the table's columns.
    static func function(for filter: String?, table: String, on connection: PostgresConnection)
        throws(PostgresError) -> RowCondition?
    {
        guard let filter else { return nil }
        let rows = try connection.execute(
            """
            SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute \
            WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum
            """, [table])
        var columns = (0..<rows.rowCount).compactMap { row -> (name: String, type: String)? in
            guard let name = rows.text(row, 0), let type = rows.text(row, 1) else { return nil }
            return (name, type)
        }
        if columns.count > maximumParameters {
            // Only the columns the text may name: a column it names and that is left out is
            // an error of PostgreSQL's ("column … does not exist"), never a wider statement.
            let lowered = filter.lowercased()
            columns = columns.filter { lowered.contains($0.name.lowercased()) }
            guard columns.count <= maximumParameters else {
                throw .invalidFilter(
                    filter: filter,
                    reason: "it names more than \(maximumParameters) of the table's columns, more than a function takes"
                )
            }
        }
        let q = PostgresConnection.quoted(identifier:)
        let signature = columns.map { "\(q($0.name)) \($0.type)" }.joined(separator: ", ")
        let name = "pg_temp.heatmap_where_" + NameHash.hex(filter + "\u{0}" + signature)
        let tag = dollarTag(absentFrom: filter)
        let create =
            "CREATE OR REPLACE FUNCTION \(name)(\(signature)) RETURNS boolean LANGUAGE sql STABLE AS "
            + "\(tag)SELECT (\n\(filter)\n)\(tag)"
        do throws(PostgresError) {
            try connection.execute(create)
            // Once, on NULLs: PostgreSQL says then what only a run finds (a body that writes).
            let nulls = columns.map { "NULL::\($0.type)" }.joined(separator: ", ")
            do throws(PostgresError) {
                try connection.execute("SELECT \(name)(\(nulls))")
            } catch .queryFailed(_, let state) where state?.hasPrefix("22") == true {
                // A data exception on NULLs (a division, a cast) says nothing of the rows.
            } catch .timedOut {
                // It ran (a slow condition, which the statement timeout bounds): nothing refused.
            }
        } catch .queryFailed(let reason, let state) {
            throw .invalidFilter(filter: filter, reason: explained(reason, state: state))
        }
        return RowCondition(
            create: create, call: "\(name)(\(columns.map { q($0.name) }.joined(separator: ", ")))")
    }

    /// A dollar-quote delimiter, `$heatmap_where$` or `$heatmap_where_N$`, that `text` does
    /// not hold: the body then ends exactly where the text does (the characters around it,
    /// a newline and a parenthesis, are in no delimiter).
    static func dollarTag(absentFrom text: String) -> String {
        var tag = "$heatmap_where$"
        var number = 0
        while text.contains(tag) {
            number += 1
            tag = "$heatmap_where_\(number)$"
        }
        return tag
    }

    /// PostgreSQL's message without its `ERROR:`, the `LINE …` excerpt and the function's
    /// context; a body of another type than boolean is said so.
    static func explained(_ reason: String, state: String?) -> String {
        // The excerpt of the statement (LINE …, then a caret) and the function's CONTEXT go.
        let head = reason.range(of: "; LINE ").map { String(reason[..<$0.lowerBound]) } ?? reason
        var text = head.split(separator: "; ").filter { !$0.hasPrefix("CONTEXT:") }.map { part in
            var part = part
            for prefix in ["ERROR:", "DETAIL:", "HINT:"] where part.hasPrefix(prefix) {
                part = part.dropFirst(prefix.count)
            }
            return part.trimmingPrefix(while: { $0 == " " }).description
        }.joined(separator: "; ")
        if text.hasPrefix("return type mismatch in function declared to return boolean"),
            let actual = text.firstRange(of: "Actual return type is ")
        {
            let type = text[actual.upperBound...].prefix { $0 != "." && $0 != ";" }
            text = "argument of WHERE must be type boolean, not type \(type)"
        }
        return text + (state.map { " (SQLSTATE \($0))" } ?? "")
    }
}
