import HeatmapKit

/// The two channels of the kernel-weighted mean of a column over a table, as a ``ValueIndex``
/// holds them in memory: per pixel, `sum(weight)` and `sum(weight * (value - LO))`, each one
/// `GROUP BY` pixel like every tile's statement, with LO...HI the smallest and largest value of
/// the rows of positive weight.
public struct PostgresMeanChannels: Sendable {
    /// The density Σ wᵢ per pixel: the table's rows of positive weight and finite value.
    package let density: PostgresSource
    /// Σ wᵢ·(vᵢ − LO) per pixel over the same rows.
    package let shiftedValues: PostgresSource
    /// LO...HI; 0...0 without rows.
    package let values: ClosedRange<Double>
    /// The rows drawn.
    package let rows: Int
}

extension PostgresSource {
    /// The mean's channels of `valueColumn` (any column that casts to `float8`). Every row of
    /// positive weight must have a finite value, as every point of a file must: nothing is
    /// left out silently.
    ///
    /// - Throws: ``PostgresError/columnMissing(table:column:)`` for a column the table does not
    ///   have; ``PostgresError/geometryUnusable(table:column:reason:)`` naming the column and
    ///   the count of rows whose value is NULL, NaN or infinite (leave them out with `--where`).
    public func meanChannels(valueColumn: String) throws(PostgresError) -> PostgresMeanChannels {
        let found = try pool.with { (connection) throws(PostgresError) in
            try connection.execute(
                """
                SELECT count(*) FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 \
                AND attnum > 0 AND NOT attisdropped
                """, [layout.table, valueColumn])
        }
        guard (found.text(0, 0) ?? "0") != "0" else { throw .columnMissing(table: table.name, column: valueColumn) }
        let value = "\(PostgresConnection.quoted(identifier: valueColumn))::float8"
        let finite = "\(value) > '-Infinity'::float8 AND \(value) < 'Infinity'::float8"
        var drawn = ["\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8"]
        if let filter = layout.filter { drawn.append("(\(filter))") }
        let result = try pool.with { (connection) throws(PostgresError) in
            try connection.execute(
                """
                SELECT count(*) FILTER (WHERE NOT coalesce(\(finite), false)), count(*) FILTER (WHERE \(finite)),
                min(\(value)) FILTER (WHERE \(finite)), max(\(value)) FILTER (WHERE \(finite))
                FROM \(layout.table) WHERE \(drawn.joined(separator: " AND "))
                """)
        }
        guard let unusable = result.text(0, 0).flatMap({ Int($0) }), let rows = result.text(0, 1).flatMap({ Int($0) })
        else { throw .invalidAnswer("the count of the rows' values is missing") }
        guard unusable == 0 else {
            throw .geometryUnusable(
                table: table.name, column: valueColumn,
                reason: "\(unusable) rows of positive weight have a NULL, NaN or infinite value, whose mean cannot "
                    + "be drawn: leave them out (--where \"\(valueColumn) IS NOT NULL\") or give them a value")
        }
        let lowest = result.text(0, 2).flatMap { Double($0) } ?? 0
        let highest = result.text(0, 3).flatMap { Double($0) } ?? lowest
        // Both channels read the same rows: those of finite value (all of them, checked above),
        // with the user's filter; a filter keeps the density from the weight-only summaries.
        var densityLayout = layout
        densityLayout.filter = layout.filter.map { "(\($0)) AND \(finite)" } ?? finite
        var shiftedLayout = densityLayout
        shiftedLayout.weight = "(\(layout.weight) * (\(value) - '\(lowest)'::float8))"
        shiftedLayout.summaries = nil
        return PostgresMeanChannels(
            density: PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: densityLayout),
            shiftedValues: PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: shiftedLayout),
            values: lowest...max(lowest, highest), rows: rows)
    }
}
