import HeatmapCore
import HeatmapKit

/// Where the table holds weight, for `render`'s walk over the pyramid: whether a tile's padded
/// area holds a row of weight > 0, answered by one `SELECT EXISTS` per copy of the world the
/// area overlaps, over the key's ranges (one B-tree probe a range, stopping at the first row),
/// so that the walk reads no rows and costs about one index probe a tile.
extension PostgresSource: WeightPresence {
    /// Whether any row of weight > 0 lies in a pixel of `rect`. A pinned version (see
    /// ``pinned(toChangeCount:)``) reads the change count in the same statement, so in the same
    /// snapshot, and fails with ``PostgresError/changed(expected:found:)`` when the table moved on.
    ///
    /// - Throws: ``PostgresError`` when the database fails or the table changed.
    package func holdsWeight(in rect: PixelRect, space: PixelSpace) throws(PostgresError) -> Bool {
        for query in WeightQuery.covering(rect, space: space) {
            let (sql, parameters) = presenceStatement(units: (query.unitColumns, query.unitRows))
            let result = try pool.with { (connection) throws(PostgresError) in
                try connection.execute(sql, parameters)
            }
            if let expected = pinnedChangeCount {
                let found = result.text(0, 1).flatMap { Int64($0) } ?? 0
                if found != expected { throw .changed(expected: expected, found: found) }
            }
            if result.text(0, 0) == "t" { return true }
        }
        return false
    }

    /// `SELECT EXISTS (…)` over the rows of weight > 0 in the units `columns` × `rows`, and the
    /// change count beside it when the version is pinned.
    func presenceStatement(units: (Range<UInt64>, Range<UInt64>)) -> (String, [String?]) {
        var parameters: [String?] = [
            "\(units.0.lowerBound)", "\(units.0.upperBound)", "\(units.1.lowerBound)", "\(units.1.upperBound)",
        ]
        var conditions = [
            "\(layout.x) >= $1::int8", "\(layout.x) < $2::int8", "\(layout.y) >= $3::int8", "\(layout.y) < $4::int8",
            "\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8",
        ]
        if let filter = layout.filter { conditions.append("(\(filter))") }
        var exists: String
        if layout.keyIndexed, layout.partitionShift == nil {
            let covering = KeyRanges.decomposed(columns: units.0, rows: units.1)
            parameters.append("{" + covering.map { "\($0.lowerBound)" }.joined(separator: ",") + "}")
            parameters.append("{" + covering.map { "\($0.upperBound)" }.joined(separator: ",") + "}")
            exists =
                "SELECT 1 FROM unnest($5::int8[], $6::int8[]) AS k(low, high) CROSS JOIN LATERAL (SELECT 1 FROM "
                + "\(layout.table) WHERE \(layout.key) BETWEEN k.low AND k.high AND "
                + "\(conditions.joined(separator: " AND ")) LIMIT 1) p"
        } else {
            if let shift = layout.partitionShift, layout.keyIndexed {
                var ranges: [String] = []
                for range in KeyRanges.covering(columns: units.0, rows: units.1) {
                    parameters += ["\(range.lowerBound)", "\(range.upperBound)"]
                    let keys = "\(layout.key) BETWEEN $\(parameters.count - 1)::int8 AND $\(parameters.count)::int8"
                    ranges.append("(\(keys) AND \(Self.partitionCondition(range, shift: shift)))")
                }
                conditions.append("(" + ranges.joined(separator: " OR ") + ")")
            }
            exists = "SELECT 1 FROM \(layout.table) WHERE \(conditions.joined(separator: " AND "))"
        }
        var sql = "SELECT EXISTS (\(exists))"
        if pinnedChangeCount != nil {
            parameters.append(layout.qualifiedName)
            sql += ", (SELECT version FROM heatmap_versions WHERE table_name = $\(parameters.count))"
        }
        return (sql, parameters)
    }
}
