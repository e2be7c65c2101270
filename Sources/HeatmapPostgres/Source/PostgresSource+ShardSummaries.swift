import HeatmapCore
import HeatmapKit

/// A sharded table's summaries: the coordinator's quoted partitioned `T_cells`, and the
/// finest level every shard holds.
struct ShardCells: Sendable, Hashable {
    var table: String
    var finest: Int
}

extension PostgresSource {
    /// A sharded table's summaries through the coordinator (see `ShardSummaries`): the quoted
    /// partitioned `T_cells` and the finest level every shard holds; `nil` for a table
    /// sharded before they existed, or whose shards summarise no level.
    static func shardSummaries(cells: String, name: String, on connection: PostgresConnection)
        throws(PostgresError) -> ShardCells?
    {
        let found = try connection.execute(
            """
            SELECT s.finest FROM heatmap_summaries s WHERE s.table_name = $1 AND to_regclass($2) IS NOT NULL \
            AND EXISTS (SELECT 1 FROM pg_partitioned_table p WHERE p.partrelid = to_regclass($2))
            """, [name, cells])
        guard found.rowCount == 1, let finest = found.text(0, 0).flatMap({ Int($0) }),
            CellSummaries.levels.contains(finest)
        else { return nil }
        return ShardCells(table: cells, finest: finest)
    }
}
