import HeatmapKit

extension PostgresSource {
    /// The statement and parameters that a pinned version's tile runs for `query` (see
    /// ``CountedSource``), made as the tile makes them (the key ranges joined by the cells'
    /// row counts): for the benchmark's figure of the SQL alone, run on a connection of its own.
    @_spi(Benchmark)
    public func tileStatement(for query: WeightQuery) throws(PostgresError) -> (sql: String, parameters: [String?]) {
        try pool.with { (connection) throws(PostgresError) in
            if let rows = try rowTileStatement(for: query, on: connection) { return rows }
            guard let counted = countedStatement(for: query) else {
                throw .invalidAnswer("the table's change count cannot be read with its pixels")
            }
            return counted
        }
    }
}
