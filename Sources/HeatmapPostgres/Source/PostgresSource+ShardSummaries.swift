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

    /// For a sharded table with summaries, at a summarised pixel level: the cells of the query's
    /// pixels, each from the one shard that holds it (every partition's scan ships its `WHERE`
    /// in the Remote SQL; nothing is summed on the coordinator); `nil` otherwise.
    func shardSummaryStatement(space: PixelSpace, columns: Range<Int>, rows: Range<Int>) -> (String, [String?])? {
        guard let cells = layout.shardCells?.table, let finest = layout.shardCells?.finest,
            let level = space.pixelLevel,
            CellSummaries.levels.contains(level), level >= finest
        else { return nil }
        var parameters: [String?] = [
            "\(level)", "\(columns.lowerBound)", "\(columns.upperBound)", "\(rows.lowerBound)",
            "\(rows.upperBound)",
        ]
        var ranges: [String] = []
        for range in KeyRanges.covering(
            columns: UInt64(columns.lowerBound)..<UInt64(columns.upperBound),
            rows: UInt64(rows.lowerBound)..<UInt64(rows.upperBound))
        {
            parameters += ["\(range.lowerBound)", "\(range.upperBound)"]
            ranges.append("key BETWEEN $\(parameters.count - 1)::int8 AND $\(parameters.count)::int8")
        }
        let sql = """
            SELECT x, y, weight FROM \(cells) WHERE level = $1::int2 AND x >= $2::int8 AND x < $3::int8 \
            AND y >= $4::int8 AND y < $5::int8 AND (\(ranges.joined(separator: " OR ")))
            """
        return (sql, parameters)
    }
}
