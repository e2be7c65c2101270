import HeatmapCore
import HeatmapKit

extension PostgresSource {
    /// The statement and parameters that a pinned version's tile runs for `query` (see
    /// ``CountedSource``), made as the tile makes them (the key ranges joined by the cells'
    /// row counts): for the benchmark's figure of the SQL alone, run on a connection of its own.
    package func tileStatement(for query: WeightQuery) throws(PostgresError) -> (sql: String, parameters: [String?]) {
        try pool.with { (connection) throws(PostgresError) in
            let statement = try pinnedTileStatement(for: query, on: connection)
            return (statement.sql, statement.parameters)
        }
    }
}

extension PostgresSource {
    /// The source with its `--where` text written into the statements as it was before the
    /// condition became a function of the row (`AND (text)`), for the benchmark's A/B of the two
    /// only: that text can leave its place.
    package func inliningCondition() -> PostgresSource {
        var inlined = layout
        inlined.filter = table.filter.map { "(\($0))" }
        inlined.rowCondition = nil
        return PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: inlined)
    }

    /// Makes the row condition's function on `connection` (the pool makes it on its own).
    package func prepareSession(_ connection: PostgresConnection) throws(PostgresError) {
        if let condition = layout.rowCondition { try connection.execute(condition.create) }
    }
}

extension PostgresSource {
    /// The statement of `query`'s pixel weights as a tile runs it (its bound values in
    /// `$n`), and PostgreSQL's plan of it with those values (`EXPLAIN (COSTS OFF)`, on a pooled
    /// connection with the pool's settings and plans for the values, as a tile's): for the documentation of a filtered tile's plan.
    package func explained(_ query: WeightQuery) throws(PostgresError) -> (statement: String, plan: [String]) {
        let (sql, parameters) = statement(for: query)
        let (bound, values) = try PostgresConnection.binding(sql, parameters)
        let result = try pool.with { (connection) throws(PostgresError) in
            try connection.withCustomPlans { () throws(PostgresError) in
                try connection.execute("EXPLAIN (COSTS OFF) " + bound, values)
            }
        }
        return (bound, (0..<result.rowCount).compactMap { result.text($0, 0) })
    }
}

extension PostgresSource {
    /// The source reading its time window from the rows alone, as before the time summaries:
    /// for the benchmark's A/B of the two.
    package func withoutTimeSummaries() -> PostgresSource {
        var rows = layout
        rows.timeSummaries = nil
        return PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: rows)
    }

    /// Each span's finest level of the table's time summaries (``TimeSummaries/spans``), or
    /// `nil` without them.
    package var timeSummaryLevels: [Int]? { layout.timeState?.finest }
}
