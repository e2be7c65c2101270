import HeatmapKit

/// What `heatmap info` needs for its suggested zooms, from SQL: the rows, the bounds as a file's
/// report gives them (the smallest longitude interval, so across the antimeridian too) and a
/// sample of positions for the spacing between points.
package struct PostgresTableExtent: Sendable, Hashable {
    /// The rows with a usable position and weight (as ``PostgresTableSummary/rows``).
    package var rows: Int
    /// The latitudes' range and the smallest longitude interval holding every row; `nil`
    /// without rows.
    package var bounds: PointBounds?
    /// Up to ``PostgresSource/sampleSize`` rows' positions as world fractions (x east from the
    /// antimeridian, y south from the north): every row of a table that small, else the rows
    /// first in the order of a hash of their latitude and longitude (a deterministic sample).
    package var sample: [SIMD2<Double>]

    /// The zooms worth viewing the table at, by the definition a file's report uses
    /// (``SuggestedZooms/range(bounds:points:sample:radius:)``).
    package func suggestedZoomRange(radius: Int = 20) -> ClosedRange<Int> {
        SuggestedZooms.range(bounds: bounds, points: rows, sample: sample, radius: radius)
    }
}

extension PostgresSource {
    /// The most rows ``extent()`` samples, as many as a file's report keeps.
    package static let sampleSize = 1000

    /// The SQL condition of a row with a usable position and weight.
    var usableCondition: String {
        "\(layout.latitude) BETWEEN -90 AND 90 AND \(layout.longitude) > '-Infinity'::float8 "
            + "AND \(layout.longitude) < 'Infinity'::float8 AND \(layout.weight) >= 0 "
            + "AND \(layout.weight) < 'Infinity'::float8"
    }

    /// Bounds and a sample of the rows, from two statements in one snapshot: the longitudes'
    /// extremes in 3600 bins of 0.1° with the latitudes' (a `GROUP BY` of at most 3600 rows),
    /// and the first ``sampleSize`` rows in the order of `hashfloat8(lat) # hashfloat8(lng)`
    /// (a top-N sort: bounded memory, one pass over the rows).
    ///
    /// - Parameter sampling: `false` leaves the sample out (bounds and rows only: one statement).
    /// - Throws: ``PostgresError`` when the database fails.
    package func extent(sampling: Bool = true) throws(PostgresError) -> PostgresTableExtent {
        let filter = layout.filter.map { " AND (\($0))" } ?? ""
        let lng = layout.longitude
        let bins = longitudeBinsSQL
        let sample = """
            SELECT \(layout.x), \(layout.y) FROM \(layout.table) WHERE \(usableCondition)\(filter)
            ORDER BY hashfloat8(\(layout.latitude)) # hashfloat8(\(lng)) LIMIT \(Self.sampleSize)
            """
        let (binned, sampled) = try inSnapshot { (connection) throws(PostgresError) in
            (try connection.execute(bins), sampling ? try connection.execute(sample) : nil)
        }
        let found = try LongitudeBins(binned)
        var positions: [SIMD2<Double>] = []
        for row in 0..<(sampled?.rowCount ?? 0) {
            guard let sampled else { break }
            guard let x = sampled.text(row, 0).flatMap({ Int64($0) }),
                let y = sampled.text(row, 1).flatMap({ Int64($0) })
            else { throw .invalidAnswer("a sampled row's position is missing") }
            positions.append(SIMD2(Double(x) / 4_294_967_296, Double(y) / 4_294_967_296))
        }
        return PostgresTableExtent(rows: found.rows, bounds: found.bounds, sample: positions)
    }
}
