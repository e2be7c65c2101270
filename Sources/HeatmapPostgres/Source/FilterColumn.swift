/// A `--time` or `--categories` column of a table, checked against the catalog: its quoted
/// name and how a filter's values compare with it, as bound parameters (see
/// ``PostgresConnection/boundValue(_:)``) cast so that a B-tree or BRIN index on the column serves.
struct FilterColumn: Sendable, Hashable {
    /// How the column's values are read.
    enum Kind: Sendable, Hashable {
        /// `timestamptz`: the instant.
        case instant
        /// `timestamp`: a wall-clock time read as UTC, as a file's time without an offset.
        case wallClock
        /// `date`: its midnight in UTC, as a file's date.
        case date
        /// A number of Unix seconds (a fraction rounds down); the cast of a bound second, so
        /// that the comparison is of the column's own type (`nil`: the column cast to `float8`).
        case seconds(cast: String?)
        /// Text (`text`, `varchar`, `char`): compared as text.
        case text
        /// An integer (`int2`, `int4`, `int8`): compared as `int8`.
        case integer
    }

    /// The column's name as given.
    var name: String
    /// The quoted name.
    var quoted: String
    /// The type the catalog declares (`format_type`), for messages.
    var type: String
    var kind: Kind

    /// The condition that the row's time lies in `window` (`nil` ends are open), its bounds bound.
    func condition(in window: (start: Int64?, end: Int64?)) -> String? {
        var parts: [String] = []
        if let start = window.start { parts.append("\(column) >= \(bound(start))") }
        if let end = window.end { parts.append("\(column) < \(bound(end))") }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    /// The condition that the row's category is one of `values` (the texts `info` lists).
    func condition(oneOf values: [String]) -> String {
        let array = "{" + values.map(Self.arrayElement).joined(separator: ",") + "}"
        let parameter = PostgresConnection.boundValue(array)
        return kind == .integer
            ? "\(quoted) = ANY(\(parameter)::int8[])" : "\(quoted)::text = ANY(\(parameter)::text[])"
    }

    /// The column as compared: itself, or cast to `float8` for a number of another type.
    private var column: String {
        if case .seconds(cast: nil) = kind { return "\(quoted)::float8" }
        return quoted
    }

    /// The SQL of `second` in the column's type: a row's time is at or after `second` exactly
    /// when its column is at or after it (times round down to the second, dates are midnights,
    /// so a date is at or after `second` when it is at or after the day holding `second`,
    /// rounded up to a midnight).
    private func bound(_ second: Int64) -> String {
        let value = PostgresConnection.boundValue("\(second)")
        switch kind {
        case .instant: return "to_timestamp(\(value)::float8)"
        case .wallClock: return "(to_timestamp(\(value)::float8) AT TIME ZONE 'UTC')"
        case .date:
            let days = second >= 0 ? (second + 86_399) / 86_400 : -((-second) / 86_400)
            return "('1970-01-01'::date + \(PostgresConnection.boundValue("\(days)"))::int4)"
        case .seconds(let cast): return "\(value)::\(cast ?? "float8")"
        case .text, .integer: return value
        }
    }

    /// SQL for `value`, of the column's type (the column itself, or its `min`), in Unix
    /// seconds (`float8`; round down for the second).
    func seconds(of value: String) -> String {
        switch kind {
        case .instant, .wallClock, .date: "extract(epoch FROM \(value))::float8"
        default: "(\(value))::float8"
        }
    }

    /// The condition that the row's time is finite, on the column itself (immutable, so that
    /// `postgres_fdw` ships it to a shard: `extract` of a `timestamptz` is only stable).
    var finite: String {
        switch kind {
        case .instant, .wallClock, .date: "isfinite(\(quoted))"
        default: "\(quoted)::float8 > '-Infinity'::float8 AND \(quoted)::float8 < 'Infinity'::float8"
        }
    }

    /// An element of an array literal: double-quoted, `"` and `\` escaped.
    private static func arrayElement(_ value: String) -> String {
        var quoted = "\""
        for character in value {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// The time column `name` of `table` (quoted), as the catalog declares it.
    ///
    /// - Throws: ``PostgresError/filterColumnUnusable(table:column:reason:)`` when the table has
    ///   no such column or it is not a time or a number.
    static func time(_ name: String, table: String, shown: String, on connection: PostgresConnection)
        throws(PostgresError) -> FilterColumn
    {
        let (type, typeName, category) = try declared(name, table: table, shown: shown, on: connection)
        let kind: Kind
        switch (typeName, category) {
        case ("timestamptz", _): kind = .instant
        case ("timestamp", _): kind = .wallClock
        case ("date", _): kind = .date
        case ("int2", _), ("int4", _), ("int8", _): kind = .seconds(cast: "int8")
        case ("float8", _): kind = .seconds(cast: "float8")
        case ("numeric", _): kind = .seconds(cast: "numeric")
        case (_, "N"): kind = .seconds(cast: nil)
        default:
            throw .filterColumnUnusable(
                table: shown, column: name,
                reason:
                    "--time needs a timestamptz, timestamp, date or numeric (Unix seconds) column, and it is \(type)")
        }
        return FilterColumn(name: name, quoted: PostgresConnection.quoted(identifier: name), type: type, kind: kind)
    }

    /// The category column `name` of `table` (quoted), as the catalog declares it.
    ///
    /// - Throws: ``PostgresError/filterColumnUnusable(table:column:reason:)`` when the table has
    ///   no such column or it is not text or an integer.
    static func category(_ name: String, table: String, shown: String, on connection: PostgresConnection)
        throws(PostgresError) -> FilterColumn
    {
        let (type, typeName, category) = try declared(name, table: table, shown: shown, on: connection)
        let kind: Kind
        switch (typeName, category) {
        case ("int2", _), ("int4", _), ("int8", _): kind = .integer
        case (_, "S"): kind = .text
        default:
            throw .filterColumnUnusable(
                table: shown, column: name, reason: "--categories needs text or integer columns, and it is \(type)")
        }
        return FilterColumn(name: name, quoted: PostgresConnection.quoted(identifier: name), type: type, kind: kind)
    }

    /// The declared type of column `name` (`format_type`), its type's name and category.
    private static func declared(_ name: String, table: String, shown: String, on connection: PostgresConnection)
        throws(PostgresError) -> (String, String, String)
    {
        let found = try connection.execute(
            """
            SELECT format_type(a.atttypid, a.atttypmod), t.typname::text, t.typcategory::text FROM pg_attribute a \
            JOIN pg_type t ON t.oid = a.atttypid \
            WHERE a.attrelid = to_regclass($1) AND a.attname = $2 AND a.attnum > 0 AND NOT a.attisdropped
            """, [table, name])
        guard found.rowCount == 1, let type = found.text(0, 0), let typeName = found.text(0, 1),
            let category = found.text(0, 2)
        else { throw .filterColumnUnusable(table: shown, column: name, reason: "the table has no such column") }
        return (type, typeName, category)
    }
}
