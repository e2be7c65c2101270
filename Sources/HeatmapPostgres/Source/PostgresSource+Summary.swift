import HeatmapKit

/// What a table holds, as `heatmap info` prints it.
package struct PostgresTableSummary: Sendable, Hashable, Codable {
    /// The rows the source draws (matching the filter, with a position).
    package var rows: Int
    /// The rows of weight 0 among them (kept, drawing nothing).
    package var zeroWeights: Int
    /// The rows left out: a NULL or unusable position or weight (negative, NaN, infinite).
    package var unusable: Int
    /// The latitudes' range and the smallest longitude interval holding every row (`west > east`
    /// across the antimeridian, as a file's report gives it); `nil` without rows.
    package var bounds: PointBounds?
    /// The smallest weight; `nil` without rows.
    package var minimumWeight: Double?
    /// The largest weight; `nil` without rows.
    package var maximumWeight: Double?
    /// The sum of the weights; `nil` without rows.
    package var totalWeight: Double?
    /// Of the rows left out, why, for a table read through a geometry column; `nil` for others.
    package var geometry: PostgresGeometryCounts? = nil
}

extension PostgresSource {
    /// Counts and extent of the table's rows, from one aggregate over the table.
    package func summary() throws(PostgresError) -> PostgresTableSummary {
        let usable = usableCondition
        let filter = layout.filter.map { "WHERE (\($0))" } ?? ""
        let sql = """
            SELECT count(*) FILTER (WHERE \(usable)), count(*) FILTER (WHERE \(usable) AND \(layout.weight) = 0),
            count(*) FILTER (WHERE NOT coalesce(\(usable), false)),
            min(\(layout.latitude)) FILTER (WHERE \(usable)), min(\(layout.longitude)) FILTER (WHERE \(usable)),
            max(\(layout.latitude)) FILTER (WHERE \(usable)), max(\(layout.longitude)) FILTER (WHERE \(usable)),
            min(\(layout.weight)) FILTER (WHERE \(usable)), max(\(layout.weight)) FILTER (WHERE \(usable)),
            sum(\(layout.weight)) FILTER (WHERE \(usable))
            FROM \(layout.table) \(filter)
            """
        // The box crosses the antimeridian when that is shorter, as a file's report's does.
        let (result, bounds) = try withAntimeridianBounds(sql) { result in
            let number = { (column: Int) in result.text(0, column).flatMap(Double.init) }
            guard let south = number(3), let west = number(4), let north = number(5), let east = number(6) else {
                return nil
            }
            return PointBounds(south: south, west: west, north: north, east: east)
        }
        func number(_ column: Int) -> Double? { result.text(0, column).flatMap(Double.init) }
        return PostgresTableSummary(
            rows: Int(result.text(0, 0) ?? "") ?? 0, zeroWeights: Int(result.text(0, 1) ?? "") ?? 0,
            unusable: Int(result.text(0, 2) ?? "") ?? 0, bounds: bounds, minimumWeight: number(7),
            maximumWeight: number(8), totalWeight: number(9), geometry: try geometryCounts())
    }
}
