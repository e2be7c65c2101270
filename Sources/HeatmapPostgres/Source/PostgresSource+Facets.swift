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
    /// The table's time range and category values, from one statement a column in one
    /// snapshot (``facetStatements()``), over the rows drawn or of weight 0 (those `info`
    /// counts): at most ``CategoryDictionary/maximumValues`` values a column, the most frequent.
    ///
    /// - Throws: ``PostgresError`` when the database fails, or
    ///   ``PostgresError/filterColumnUnusable(table:column:reason:)`` for a column of more values.
    package func filterFacets() throws(PostgresError) -> TableFacets {
        let statements = facetStatements()
        return try inSnapshot { (connection) throws(PostgresError) in
            var range: ClosedRange<Int64>?
            if let time = statements.time { range = Self.secondsRange(try connection.execute(time)) }
            var dictionaries: [CategoryDictionary] = []
            for (column, statement) in zip(layout.categories, statements.categories) {
                let found = try connection.execute(statement)
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

    /// The statements of ``filterFacets()``: the first and last time (in Unix seconds), and each
    /// category column's values (as text) with their rows, the most frequent first, one more
    /// than a dictionary takes. Each aggregates in two steps, the inner one grouped by the
    /// partition key too on a sharded table, so that `postgres_fdw` ships it to each shard
    /// (which finds its rows' first and last time and counts its values) and the coordinator
    /// gathers a few rows a shard; the time's inner step reads the column itself (`extract` of a
    /// `timestamptz` is only stable, which `postgres_fdw` does not ship).
    func facetStatements() -> (time: String?, categories: [String]) {
        let rows = "\(usableCondition)" + (layout.filter.map { " AND (\($0))" } ?? "")
        // The partition key beside an inner aggregate's own groups: one group a shard's cell.
        let cells = layout.partitionShift.map { Self.partitionKey(shift: $0) }
        func grouped(_ groups: [String]) -> String {
            let all = groups + (cells.map { [$0] } ?? [])
            return all.isEmpty ? "" : " GROUP BY " + all.joined(separator: ", ")
        }
        let time = layout.time.map { time in
            """
            SELECT \(time.seconds(of: "min(low)")), \(time.seconds(of: "max(high)")) FROM (SELECT \
            min(\(time.quoted)) AS low, max(\(time.quoted)) AS high FROM \(layout.table) \
            WHERE \(rows) AND \(time.finite)\(grouped([]))) t
            """
        }
        let categories = layout.categories.map { column in
            """
            SELECT value::text, sum(n)::int8 FROM (SELECT \(column.quoted) AS value, count(*) AS n \
            FROM \(layout.table) WHERE \(rows) AND \(column.quoted) IS NOT NULL\(grouped(["1"]))) c \
            GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT \(CategoryDictionary.maximumValues + 1)
            """
        }
        return (time, categories)
    }
}
