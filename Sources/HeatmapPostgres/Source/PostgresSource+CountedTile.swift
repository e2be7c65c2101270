import HeatmapCore
import HeatmapKit

extension PostgresSource {
    /// A query's pixel-weight statement with the table's change count in the same statement,
    /// one snapshot: the count comes first as a row of its own, `(NULL, NULL, count)` (a pixel's
    /// position is never NULL), then the pixels. `nil` for a table whose count is not found by
    /// name (one `import` did not make), which then checks the count in a transaction.
    func countedStatement(for query: WeightQuery) -> (String, [String?])? {
        guard layout.imported, !layout.qualifiedName.isEmpty else { return nil }
        let (sql, parameters) = statement(for: query)
        let count =
            "SELECT NULL::int8, NULL::int8, coalesce((SELECT version FROM heatmap_versions "
            + "WHERE table_name = $\(parameters.count + 1)), 0)::float8 UNION ALL "
        return (count + sql, parameters + [layout.qualifiedName])
    }

    /// Adds the pixels of a counted statement's result (see ``countedStatement(for:)``) to
    /// `sink`, and returns the change count it read; `missing` when the count's row is absent
    /// (a statement that reads it without `coalesce`), else that is an error.
    static func addCounted(_ result: PostgresResult, into sink: inout PixelWeightSink, missing: Int64? = nil)
        throws(PostgresError) -> Int64
    {
        var count: Int64?
        for row in 0..<result.rowCount {
            guard let (column, line, weight) = result.cell(row) else {
                guard count == nil, result.isNull(row, 0), let found = result.double(row, 2),
                    let whole = Int64(exactly: found)
                else { throw .invalidAnswer("a pixel's position or weight is missing") }
                count = whole
                continue
            }
            guard sink.add(column: Int(column), row: Int(line), weight: weight) else {
                throw .invalidAnswer(
                    "pixel \(column), \(line) of weight \(weight) is outside the query or not a finite weight ≥ 0")
            }
        }
        guard let count = count ?? missing else { throw .invalidAnswer("the table's change count is missing") }
        return count
    }
}

extension PostgresSource {
    /// The statement a pinned version's tile runs for `query`: the rows' statement where it
    /// applies (``rowTileStatement(for:on:)``, whose count row is missing for a table never
    /// changed: `countMayBeMissing`), else ``countedStatement(for:)``.
    func pinnedTileStatement(for query: WeightQuery, on connection: PostgresConnection) throws(PostgresError) -> (
        sql: String, parameters: [String?], countMayBeMissing: Bool
    ) {
        if let (sql, parameters) = try rowTileStatement(for: query, on: connection) { return (sql, parameters, true) }
        guard let (sql, parameters) = countedStatement(for: query) else {
            throw .invalidAnswer("the table's change count cannot be read with its pixels")
        }
        return (sql, parameters, false)
    }
}

/// A pinned version's tile of one statement: the change count read in that statement, so the
/// tile is one round trip, no transaction around it (a statement is its own snapshot).
struct CountedSource: WeightSource {
    typealias Failure = PostgresError

    let source: PostgresSource
    let connection: PostgresConnection
    /// The change count the version stands for.
    let expected: Int64

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(PostgresError) {
        let (sql, parameters, countMayBeMissing) = try source.pinnedTileStatement(for: query, on: connection)
        let result = try connection.executePrepared(sql, parameters, binary: true)
        // The pixels go to the sink first; a tile of another state throws and the grid is dropped.
        let found = try PostgresSource.addCounted(result, into: &sink, missing: countMayBeMissing ? 0 : nil)
        if found != expected {
            if let handler = source.hooks.newerState.withLock({ $0 }) { handler(found) }
            throw PostgresError.changed(expected: expected, found: found)
        }
        if let hook = source.hooks.afterStatement.withLock({ $0 }) { hook() }
    }
}
