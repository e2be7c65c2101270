import HeatmapCore
import HeatmapKit

/// What a table offers to filter by: its time range and each category column's values with
/// their counts, as a file's points give them.
package struct TableFacets: Sendable, Hashable {
    /// The first and last second of the rows' times, or `nil` without a time column or rows.
    package var timeRange: ClosedRange<Int64>?
    /// Each `--categories` column's values (as text) with the rows holding each.
    package var dictionaries: [CategoryDictionary]
}

extension PostgresSource {
    /// The rows a time window and category selections keep, as a source of its own (the same
    /// pool, table, change count and hooks): every statement of its tiles, M(z) searches,
    /// presence and extent `AND`s the filter's condition, whose window ends and value sets are
    /// bound parameters (`= ANY($n::text[])`), never text in the statement. The cell summaries
    /// are not read (they hold every row); a time window alone reads the time summaries, when
    /// the table has them, for its whole buckets (see ``TimeSummaries``). M(z) is not kept in
    /// `heatmap_maxima` (it is the filter's). A filter that keeps every row gives the source itself.
    ///
    /// Values are not checked here: resolve selections against ``filterFacets()`` first (a
    /// value no row holds keeps nothing).
    ///
    /// - Throws: ``PostgresError/filterColumnUnusable(table:column:reason:)`` for a window
    ///   without a `--time` column or a column that is not one of `--categories`.
    package func filtered(window: TimeWindow, categories: [CategorySelection]) throws(PostgresError)
        -> PostgresSource
    {
        var conditions: [String] = []
        if !window.isAll {
            guard let time = layout.time else {
                throw .filterColumnUnusable(
                    table: table.name, column: "(none)",
                    reason: "a time window needs the table's time column, --time COL")
            }
            if let condition = time.condition(in: (window.start, window.end)) { conditions.append(condition) }
        }
        for selection in categories {
            guard let column = layout.categories.first(where: { $0.name == selection.column }) else {
                let known = layout.categories.map(\.name).joined(separator: ", ")
                throw .filterColumnUnusable(
                    table: table.name, column: selection.column,
                    reason: "it is not a category column: "
                        + (known.isEmpty ? "give it with --categories COL" : "they are \(known)"))
            }
            conditions.append(column.condition(oneOf: selection.values))
        }
        guard !conditions.isEmpty else { return self }
        var filtered = layout
        if categories.isEmpty, !window.isAll, let state = layout.timeState, let time = layout.time,
            time.kind == .instant
        {
            filtered.timeSummaries = TimeSummaryUse(
                state: state, start: window.start, end: window.end, time: time, rest: layout.filter)
        }
        let condition = conditions.joined(separator: " AND ")
        filtered.filter = layout.filter.map { "(\($0)) AND \(condition)" } ?? condition
        filtered.summaries = nil
        filtered.shardCells = nil
        return PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: filtered)
    }

    /// The table's time range and category values, from one statement a column in one
    /// snapshot, over the rows drawn or of weight 0 (those `info` counts): at most
    /// ``CategoryDictionary/maximumValues`` values a column, the most frequent.
    ///
    /// - Throws: ``PostgresError`` when the database fails, or
    ///   ``PostgresError/filterColumnUnusable(table:column:reason:)`` for a column of more values.
    package func filterFacets() throws(PostgresError) -> TableFacets {
        let rows = "\(usableCondition)" + (layout.filter.map { " AND (\($0))" } ?? "")
        let limit = CategoryDictionary.maximumValues + 1
        return try inSnapshot { (connection) throws(PostgresError) in
            var range: ClosedRange<Int64>?
            if let time = layout.time {
                let finite = "\(time.seconds) > '-Infinity'::float8 AND \(time.seconds) < 'Infinity'::float8"
                let found = try connection.execute(
                    "SELECT min(\(time.seconds)), max(\(time.seconds)) FROM \(layout.table) WHERE \(rows) AND \(finite)"
                )
                if let low = found.text(0, 0).flatMap(Double.init), let high = found.text(0, 1).flatMap(Double.init),
                    let first = Int64(exactly: low.rounded(.down)), let last = Int64(exactly: high.rounded(.down))
                {
                    range = first...last
                }
            }
            var dictionaries: [CategoryDictionary] = []
            for column in layout.categories {
                let found = try connection.execute(
                    """
                    SELECT \(column.quoted)::text, count(*) FROM \(layout.table) WHERE \(rows) \
                    AND \(column.quoted) IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT \(limit)
                    """)
                var dictionary = CategoryDictionary(column: column.name)
                for row in 0..<found.rowCount {
                    guard let value = found.text(row, 0), let count = found.text(row, 1).flatMap({ Int($0) }) else {
                        throw .invalidAnswer("a category value or its count is missing")
                    }
                    do throws(FilterError) {
                        try dictionary.add(value, count: count)
                    } catch {
                        throw .filterColumnUnusable(table: table.name, column: column.name, reason: error.description)
                    }
                }
                dictionaries.append(dictionary)
            }
            return TableFacets(timeRange: range, dictionaries: dictionaries)
        }
    }

    /// Reads the `--time` and `--categories` columns of `table` into `layout` from the catalog.
    static func addFilterColumns(
        of table: PostgresTable, to layout: inout TableLayout, on connection: PostgresConnection
    )
        throws(PostgresError)
    {
        if let name = table.timeColumn {
            layout.time = try FilterColumn.time(name, table: layout.table, shown: table.name, on: connection)
        }
        for name in table.categoryColumns {
            layout.categories.append(
                try FilterColumn.category(name, table: layout.table, shown: table.name, on: connection))
        }
    }
}
