import HeatmapCore
import HeatmapKit

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
