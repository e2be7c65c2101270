import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// How a PostGIS user computes a heatmap grid today, as a ``WeightSource`` so that the blur
/// that follows is the same as HeatmapKit's: the points of the padded tile (a `geometry(Point,
/// 3857)` column with a GIST index, found with `&&` and the tile's envelope) snapped to the
/// pixel centres with `ST_SnapToGrid` and summed per cell with `GROUP BY`, in EPSG:3857.
struct PostGISGridSource: WeightSource {
    typealias Failure = PostgresError

    /// Half the side of the Web Mercator square, metres.
    static let half = 20_037_508.342789244

    let connection: PostgresConnection
    /// The quoted table with `geom` and `weight` columns.
    let table: String

    /// Makes `target` (quoted) from the imported table `source`: each row's weight and its
    /// point in EPSG:3857, with a GIST index. Returns PostGIS's version, or `nil` when the
    /// server has no PostGIS to install.
    static func prepare(source: String, target: String, on connection: PostgresConnection) throws(PostgresError)
        -> String?
    {
        let available = try connection.execute("SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'")
        guard available.text(0, 0) == "1" else { return nil }
        try connection.execute("CREATE EXTENSION IF NOT EXISTS postgis")
        try connection.execute("DROP TABLE IF EXISTS \(target)")
        try connection.execute(
            """
            CREATE TABLE \(target) AS SELECT weight, \
            ST_Transform(ST_SetSRID(ST_MakePoint(lng, lat), 4326), 3857)::geometry(Point, 3857) AS geom \
            FROM \(source)
            """)
        try connection.execute("CREATE INDEX ON \(target) USING gist (geom)")
        try connection.execute("ANALYZE \(target)")
        return try version(on: connection)
    }

    /// PostGIS's version in the database, or `nil` when it is not installed there.
    static func version(on connection: PostgresConnection) throws(PostgresError) -> String? {
        try connection.execute("SELECT extversion FROM pg_extension WHERE extname = 'postgis'").text(0, 0)
    }

    /// The prepared statement and parameters of `query`'s cells: pixel centres are the
    /// grid's points, so a point snaps to the centre of its pixel. The weights (`real`, as
    /// imported) are summed as float8, as HeatmapKit's cells are: `sum` of a `real` column adds
    /// in float4, whose sums were up to 7.5e-7 off HeatmapKit's (the rows' check refused them).
    func statement(for query: WeightQuery) -> (sql: String, parameters: [String?]) {
        let size = 2 * Self.half / Double(query.space.worldSize)
        let west = -Self.half + Double(query.columns.lowerBound) * size
        let east = -Self.half + Double(query.columns.upperBound) * size
        let north = Self.half - Double(query.rows.lowerBound) * size
        let south = Self.half - Double(query.rows.upperBound) * size
        let sql = """
            SELECT floor((ST_X(c) - $1::float8) / $5::float8)::int8, floor(($4::float8 - ST_Y(c)) / $5::float8)::int8, \
            sum(weight::float8) FROM (SELECT ST_SnapToGrid(geom, $1::float8 + $5::float8 / 2, \
            $2::float8 + $5::float8 / 2, $5::float8, $5::float8) AS c, weight FROM \(table) \
            WHERE geom && ST_MakeEnvelope($1::float8, $2::float8, $3::float8, $4::float8, 3857) AND weight > 0) s \
            GROUP BY c
            """
        return (sql, ["\(west)", "\(south)", "\(east)", "\(north)", "\(size)"])
    }

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(PostgresError) {
        let (sql, parameters) = statement(for: query)
        // Prepared, as HeatmapKit's statement is: parsed and planned once, not per tile.
        let result = try connection.executeAsPrepared(sql, parameters, binary: true)
        for row in 0..<result.rowCount {
            guard let (column, line, weight) = result.cell(row) else { continue }
            // Points on the envelope's far edges belong to the next pixel: outside, dropped.
            sink.add(
                column: query.columns.lowerBound + Int(clamping: column),
                row: query.rows.lowerBound + Int(clamping: line),
                weight: weight)
        }
    }
}
