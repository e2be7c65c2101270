extension PostgresSource {
    /// The pixel weights of the rows meeting `conditions` (parameters $1, the scale, and $2,
    /// the shift from units to pixels). With `ranges`, the number of the parameter holding
    /// the key ranges' low ends (the next one holds their high ends, both `int8[]`, see
    /// ``KeyRanges/decomposed(columns:rows:detail:)``): one scan of the key's B-tree per
    /// range, joined from `unnest`; for a table `import` made the B-tree holds `x`, `y` and
    /// `weight` too, so these are index-only scans over entries stored side by side. Without,
    /// (no index on the key), one scan of the table.
    func rangeScan(ranges: Int?, conditions: [String]) -> String {
        let columns = "\(layout.x) AS x, \(layout.y) AS y, \(layout.weight) AS w"
        let from = "FROM \(layout.table)"
        let rows: String
        if let ranges {
            // LATERAL with OFFSET 0 keeps the planner from joining the ranges to a scan of the
            // whole table (which it chose for large rectangles): one B-tree range scan a range.
            rows =
                "SELECT p.* FROM unnest($\(ranges)::int8[], $\(ranges + 1)::int8[]) AS k(low, high) "
                + "CROSS JOIN LATERAL (SELECT \(columns) FROM \(layout.table) WHERE \(layout.key) BETWEEN k.low AND "
                + "k.high AND \(conditions.joined(separator: " AND ")) OFFSET 0) p"
        } else {
            rows = "SELECT \(columns) \(from) WHERE \(conditions.joined(separator: " AND "))"
        }
        return "SELECT (x * $1::int8) >> $2::int4, (y * $1::int8) >> $2::int4, sum(w) FROM (\(rows)) r GROUP BY 1, 2"
    }
}
