import HeatmapKit

/// The time and category columns an import copies beside the positions (`--time COL`,
/// `--categories COL,...`), named as the file names them, so that the table can be filtered
/// (`--datetime`, `--category`) with the same `--time` and `--categories`: the time as
/// `timestamptz` (the file's second, UTC), each category as `text`.
package struct ImportedFields: Sendable, Hashable {
    /// The time column's name, or `nil`.
    package var timeColumn: String?
    /// The category columns' names.
    package var categoryColumns: [String]
    /// Whether the import also sums the rows per time bucket (`--time-summaries`, see
    /// ``TimeSummaries``); only with a time column.
    package var timeSummaries: Bool

    /// The columns `options` read (`timeColumn`, `categoryColumns`), with time summaries if
    /// `timeSummaries` and a time column.
    package init(_ options: PointReadOptions, timeSummaries: Bool = false) {
        timeColumn = options.timeColumn
        categoryColumns = options.categoryColumns
        self.timeSummaries = timeSummaries && options.timeColumn != nil
    }

    /// The columns named, with time summaries if `timeSummaries` and a time column.
    package init(timeColumn: String?, categoryColumns: [String], timeSummaries: Bool = false) {
        self.timeColumn = timeColumn
        self.categoryColumns = categoryColumns
        self.timeSummaries = timeSummaries && timeColumn != nil
    }

    /// No column beyond the positions.
    package init() {
        timeColumn = nil
        categoryColumns = []
        timeSummaries = false
    }

    /// The names of the columns copied, time first, unquoted.
    var names: [String] { (timeColumn.map { [$0] } ?? []) + categoryColumns }

    /// The quoted names, for the `COPY` column list and the key index's `INCLUDE`.
    var quotedNames: [String] { names.map { MadeObject.quoted($0) } }

    /// The columns of the `COPY`: the positions', then these.
    var copyColumns: String { (["lat", "lng", "weight", "x", "y", "key"] + quotedNames).joined(separator: ", ") }

    /// The B-tree `index` (quoted) on `key` of `quoted`, holding `x`, `y`, `weight` and these
    /// columns, so that a tile, filtered or not, is an index-only scan.
    func keyIndexStatement(_ index: String, on quoted: String) -> String {
        "CREATE INDEX \(index) ON \(quoted) (key) INCLUDE (\((["x", "y", "weight"] + quotedNames).joined(separator: ", ")))"
    }

    /// Refuses `values` that lack the time or a category of one of `count` points.
    ///
    /// - Throws: ``PostgresError/invalidAnswer(_:)``.
    func check(_ values: PointChunkFields?, count: Int) throws(PostgresError) {
        guard !names.isEmpty else { return }
        guard let values, timeColumn == nil || values.times.count == count,
            values.categories.count == categoryColumns.count, values.categories.allSatisfy({ $0.count == count })
        else { throw .invalidAnswer("the points' times or categories are missing") }
    }

    /// Appends point `i`'s time and categories of `values` to a `COPY` row (nothing without columns).
    func append(_ values: PointChunkFields?, at i: Int, to bytes: inout [UInt8]) {
        guard let values, !names.isEmpty else { return }
        if timeColumn != nil { CopyEncoder.append(time: values.times[i], to: &bytes) }
        for column in values.categories { CopyEncoder.append(text: column[i], to: &bytes) }
    }

    /// The column definitions after a new table's positions': `,\n    "t" timestamptz` and so on.
    var definitionsAfterPositions: String { definitions.map { ",\n    \($0)" }.joined() }

    /// The column definitions of a new table.
    var definitions: [String] {
        (timeColumn.map { ["\(MadeObject.quoted($0)) timestamptz"] } ?? [])
            + categoryColumns.map { "\(MadeObject.quoted($0)) text" }
    }

    /// The columns `import` makes for the positions, which a copied column may not be named.
    static let positionColumns: Set<String> = ["lat", "lng", "weight", "x", "y", "key"]

    /// Refuses a name of the positions' columns, or one given twice.
    ///
    /// - Throws: ``PostgresError/filterColumnUnusable(table:column:reason:)``.
    func checkNames(table: String) throws(PostgresError) {
        var seen: Set<String> = []
        for name in names {
            if Self.positionColumns.contains(name) {
                throw .filterColumnUnusable(
                    table: table, column: name,
                    reason: "import makes this column for the positions: rename the file's column")
            }
            guard seen.insert(name).inserted else {
                throw .filterColumnUnusable(table: table, column: name, reason: "it is named twice")
            }
        }
    }

    /// Refuses appending to `quoted` (shown as `table`) when it lacks a column of the right type
    /// (`timestamptz` for the time, `text` for a category).
    ///
    /// - Throws: ``PostgresError/filterColumnUnusable(table:column:reason:)``.
    func checkExisting(_ quoted: String, table: String, on connection: PostgresConnection) throws(PostgresError) {
        let time = timeColumn.map { [($0, "timestamptz", "--time")] } ?? []
        let wanted = time + categoryColumns.map { ($0, "text", "--categories") }
        for (name, type, option) in wanted {
            let found = try connection.execute(
                """
                SELECT t.typname::text FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid \
                WHERE a.attrelid = to_regclass($1) AND a.attname = $2 AND a.attnum > 0 AND NOT a.attisdropped
                """, [quoted, name])
            guard found.rowCount == 1 else {
                throw .filterColumnUnusable(
                    table: table, column: name,
                    reason: "an append with \(option) copies into this column, and the table has none "
                        + "(an import without \(option) made it): --replace makes it afresh")
            }
            guard let declared = found.text(0, 0), declared == type else {
                throw .filterColumnUnusable(
                    table: table, column: name,
                    reason:
                        "an append with \(option) copies into a \(type) column, and it is \(found.text(0, 0) ?? "?")"
                )
            }
        }
    }
}
