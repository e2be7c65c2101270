import HeatmapKit

/// The longitudes' extremes in 3600 bins of 0.1° (with the latitudes' and the rows), from which
/// ``SuggestedZooms/longitudeInterval(bins:)`` finds the smallest longitude interval holding every
/// row, across the antimeridian too: the bounds a file's report gives the same points.
struct LongitudeBins: Sendable {
    /// Each bin's smallest and largest longitude; `nil` for an empty bin.
    var extremes: [(minimum: Double, maximum: Double)?] = Array(repeating: nil, count: 3600)
    /// The rows counted in the bins.
    var rows = 0
    /// The smallest latitude; +∞ without rows.
    var south = Double.infinity
    /// The largest latitude; −∞ without rows.
    var north = -Double.infinity

    /// The latitudes' range and the smallest longitude interval; `nil` without rows.
    var bounds: PointBounds? {
        guard rows > 0, let interval = SuggestedZooms.longitudeInterval(bins: extremes) else { return nil }
        return PointBounds(south: south, west: interval.west, north: north, east: interval.east)
    }

    /// Reads the answer of ``PostgresSource/longitudeBinsSQL``.
    ///
    /// - Throws: ``PostgresError/invalidAnswer(_:)`` for a row missing a field.
    init(_ binned: PostgresResult) throws(PostgresError) {
        for row in 0..<binned.rowCount {
            guard let bin = binned.text(row, 0).flatMap({ Int($0) }), extremes.indices.contains(bin),
                let west = binned.text(row, 1).flatMap(Double.init),
                let east = binned.text(row, 2).flatMap(Double.init),
                let low = binned.text(row, 3).flatMap(Double.init), let high = binned.text(row, 4).flatMap(Double.init),
                let count = binned.text(row, 5).flatMap({ Int($0) })
            else { throw .invalidAnswer("a longitude bin's extremes or count are missing") }
            extremes[bin] = (west, east)
            rows += count
            south = min(south, low)
            north = max(north, high)
        }
    }
}

extension PostgresSource {
    /// The `GROUP BY` of the usable rows' longitudes (wrapped into -180..<180) in 3600 bins of
    /// 0.1°: at most 3600 rows of bin, extremes, latitudes' extremes and count.
    var longitudeBinsSQL: String {
        let filter = layout.filter.map { " AND (\($0))" } ?? ""
        let lng = layout.longitude
        let wrapped =
            "CASE WHEN \(lng) >= -180 AND \(lng) < 180 THEN \(lng) ELSE \(lng) - 360 * floor((\(lng) + 180) / 360) END"
        return """
            SELECT least(3599, greatest(0, floor((w + 180) * 10)))::int, min(w), max(w), min(lat), max(lat), count(*)
            FROM (SELECT \(wrapped) AS w, \(layout.latitude) AS lat FROM \(layout.table)
            WHERE \(usableCondition)\(filter)) r GROUP BY 1
            """
    }

    /// `bounds` (a plain min/max of the rows that `first` answers) as a file's report gives
    /// them: when the longitudes span more than 180° or leave -180..<180, the smallest interval
    /// may cross the antimeridian, so the bins are read too, in the same snapshot; otherwise the
    /// plain box is that interval already and no second statement runs. Not pinned (the plain
    /// statement never was): a version's summary is read whatever the count.
    func withAntimeridianBounds(
        _ first: String, bounds: (PostgresResult) -> PointBounds?
    ) throws(PostgresError) -> (PostgresResult, PointBounds?) {
        let bins = longitudeBinsSQL
        return try PostgresSource(copying: self, pinnedChangeCount: nil).inSnapshot {
            (connection) throws(PostgresError) in
            let result = try connection.execute(first)
            guard let box = bounds(result), box.west < -180 || box.east >= 180 || box.east - box.west > 180 else {
                return (result, bounds(result))
            }
            guard let interval = try LongitudeBins(connection.execute(bins)).bounds else { return (result, box) }
            return (result, PointBounds(south: box.south, west: interval.west, north: box.north, east: interval.east))
        }
    }
}
