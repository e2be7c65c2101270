/// A table partitioned over several servers (a coordinator's partitioned table whose
/// partitions are `postgres_fdw` foreign tables on the shards, `PARTITION BY RANGE
/// ((key >> N))`): each tile's statement names the partition key's range for each of its key
/// ranges, so that the planner prunes to the shards that hold them, and groups by the
/// partition key too, so that PostgreSQL aggregates partition by partition
/// (`enable_partitionwise_aggregate`, which the pool sets) and `postgres_fdw` ships each
/// partition's `GROUP BY` to its shard. With `N` ≥ 48 a partition's keys are whole cells of
/// 2^24 units or more, which the pixels of every zoom and scale (and the summaries' cells)
/// tile, so each pixel comes back once, as from one server.
///
/// Such a table uses no cell summaries: the check that they are fresh is a one-time filter in
/// the statement, and `postgres_fdw` ships no aggregate under one, so stale summaries would
/// bring every row of the area to the coordinator. Coarse tiles sum the rows on the shards.
extension PostgresSource {
    /// The `N` of a table partitioned by `RANGE ((key >> N))`, `N` in 48...63; `nil` for any
    /// other table (and for other partition keys, which then aggregate on the coordinator:
    /// the same pixels, with every row crossing to it).
    static func partitionShift(of quoted: String, on connection: PostgresConnection) throws(PostgresError) -> Int? {
        let found = try connection.execute(
            """
            SELECT pg_get_expr(p.partexprs, p.partrelid) FROM pg_partitioned_table p \
            WHERE p.partrelid = to_regclass($1) AND p.partstrat = 'r' AND p.partnatts = 1
            """, [quoted])
        guard found.rowCount == 1, let expression = found.text(0, 0) else { return nil }
        return partitionShift(expression: expression)
    }

    /// The `N` of a partition key expression as PostgreSQL prints it, `(key >> N)`.
    static func partitionShift(expression: String) -> Int? {
        let bare = expression.filter { $0 != " " && $0 != "(" && $0 != ")" }
        guard bare.hasPrefix("key>>"), let shift = Int(bare.dropFirst(5)), (48...63).contains(shift) else { return nil }
        return shift
    }

    /// The partition key's SQL, `(key >> N)`, as a tile's statement groups by it.
    static func partitionKey(shift: Int) -> String { "(key >> \(shift))" }

    /// The condition on the partition key that holds for every key of `range` (the key is
    /// an arithmetic shift of the stored `bigint`, monotonic in it), for the planner to prune by.
    static func partitionCondition(_ range: ClosedRange<Int64>, shift: Int) -> String {
        "\(partitionKey(shift: shift)) BETWEEN \(range.lowerBound >> Int64(shift)) AND \(range.upperBound >> Int64(shift))"
    }

    /// The statement of a sharded table's pixel weights: each key range with its partition
    /// key's range (for pruning), grouped by the partition key as well, so that each shard
    /// aggregates its own rows (the `GROUP BY` in each foreign scan's Remote SQL).
    func shardedStatement(
        units: (Range<UInt64>, Range<UInt64>), shift: Int, parameters: [String?], conditions: [String],
        condition: String?
    ) -> (String, [String?]) {
        var parameters = parameters
        var conditions = conditions
        if layout.keyIndexed {
            var ranges: [String] = []
            for range in KeyRanges.covering(columns: units.0, rows: units.1) {
                parameters.append("\(range.lowerBound)")
                parameters.append("\(range.upperBound)")
                let keys = "\(layout.key) BETWEEN $\(parameters.count - 1)::int8 AND $\(parameters.count)::int8"
                ranges.append("(\(keys) AND \(Self.partitionCondition(range, shift: shift)))")
            }
            conditions.append("(" + ranges.joined(separator: " OR ") + ")")
        }
        if let filter = layout.filter { conditions.append("(\(filter))") }
        if let condition { conditions.append(condition) }
        let sql = """
            SELECT (\(layout.x) * $1::int8) >> $2::int4, (\(layout.y) * $1::int8) >> $2::int4, \
            sum(\(layout.weight)) FROM \(layout.table) WHERE \(conditions.joined(separator: " AND ")) \
            GROUP BY 1, 2, \(Self.partitionKey(shift: shift))
            """
        return (sql, parameters)
    }
}
