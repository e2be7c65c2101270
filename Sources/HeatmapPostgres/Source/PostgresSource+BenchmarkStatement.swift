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
