import Foundation
import HeatmapKit
import HeatmapPostgres

/// The PostgreSQL source against memory, on the benchmark's data (`--only postgres --postgres URL`).
struct PostgresMeasurement: Codable {
    /// Rows imported, and how fast (binary COPY, generated columns, B-tree, commit).
    var rows: Int
    var importSeconds: Double
    var importRowsPerSecond: Double
    var tiles: [PostgresTileMeasurement]
    var normalization: [PostgresNormalizationMeasurement]
    /// PostGIS's version on the server, or why the comparison was not made ("missing: …").
    var postgis: String = "missing"
    /// `heatmap serve --postgres` over a large table (`--postgres-serve-rows`), or `nil`.
    var serve: PostgresServeMeasurement?
}

/// One tile's gather + convolve from the database and from memory (medians, milliseconds).
struct PostgresTileMeasurement: Codable {
    var tile: String
    var kind: String
    var databaseMilliseconds: Double
    var memoryMilliseconds: Double
    var ratio: Double
    var sameIntensities: Bool
    /// The same tile the PostGIS way (see ``PostGISGridSource``), blurred by the same code;
    /// `nil` without PostGIS.
    var postgisMilliseconds: Double?
    /// `postgisMilliseconds / databaseMilliseconds`: how many times HeatmapKit's SQL is faster.
    var postgisOverDatabase: Double?
    /// The largest difference of a pixel's intensity between the PostGIS grid and HeatmapKit's,
    /// relative to the tile's largest (PostGIS's projection puts a few points in a neighbouring pixel).
    var postgisLargestDifference: Double?
}

/// M(z) from the database (the search from the root over SQL aggregates) against memory.
struct PostgresNormalizationMeasurement: Codable {
    var zoom: Int
    var databaseMilliseconds: Double
    var memoryMilliseconds: Double
    var databaseValue: Double
    var memoryValue: Double
}

enum PostgresBenchmark {
    /// Imports the points into `heatmap_bench` (replacing it), then draws the benchmark's
    /// tiles from it and from memory; M(z) at `normalizationZooms`.
    static func run(
        url: String, bench: TileBenchmark, tiles: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)],
        normalizationZooms: [Int], repetitions: Int
    ) throws -> PostgresMeasurement {
        let connection = ConnectionString(url)
        let summary = try PostgresImport.run(
            points: bench.data.points, into: "heatmap_bench", connection: connection, mode: .replace)
        let seconds =
            Double(summary.duration.components.seconds) + Double(summary.duration.components.attoseconds) / 1e18
        let source = try PostgresSource(connection: connection, table: PostgresTable(name: "heatmap_bench"))
        // The PostGIS way on the same rows, when the server has PostGIS.
        let gisConnection = try PostgresConnection(connection)
        var postgis = "missing: PostGIS is not installed on the server (apt-get install postgresql-15-postgis-3)"
        var gis: PostGISGridSource?
        if let version = try PostGISGridSource.prepare(
            source: "heatmap_bench", target: "heatmap_bench_postgis", on: gisConnection)
        {
            postgis = "PostGIS \(version)"
            gis = PostGISGridSource(connection: gisConnection, table: "heatmap_bench_postgis")
        }
        var measured: [PostgresTileMeasurement] = []
        for t in tiles {
            let space = try PixelSpace(zoom: t.zoom, scale: t.scale)
            let kernel = GaussianKernel(radius: 20 * t.scale)
            let rect = PixelRect(tileX: t.x, y: t.y, in: space)
            var fromDatabase: IntensityGrid?
            var fromMemory: IntensityGrid?
            let database = Measure.median(
                try (0..<repetitions).map { _ in
                    try Measure.seconds { fromDatabase = try source.intensity(in: rect, space: space, kernel: kernel) }
                        * 1000
                })
            let memory = Measure.median(
                (0..<repetitions).map { _ in
                    Measure.seconds { fromMemory = bench.index.intensity(in: rect, space: space, kernel: kernel) }
                        * 1000
                })
            let same =
                zip(fromDatabase?.values ?? [], fromMemory?.values ?? []).allSatisfy {
                    abs($0 - $1) <= 1e-6 * max($0, $1)
                } && fromDatabase?.values.count == fromMemory?.values.count
            var tile = PostgresTileMeasurement(
                tile: "\(t.zoom)/\(t.x)/\(t.y)\(t.scale == 1 ? "" : "@\(t.scale)x")", kind: t.kind,
                databaseMilliseconds: database, memoryMilliseconds: memory, ratio: database / max(memory, 1e-9),
                sameIntensities: same)
            if let gis {
                var fromPostGIS: IntensityGrid?
                let milliseconds = Measure.median(
                    try (0..<repetitions).map { _ in
                        try Measure.seconds { fromPostGIS = try gis.intensity(in: rect, space: space, kernel: kernel) }
                            * 1000
                    })
                let top = max(fromMemory?.maximum ?? 0, .leastNormalMagnitude)
                tile.postgisMilliseconds = milliseconds
                tile.postgisOverDatabase = milliseconds / max(database, 1e-9)
                tile.postgisLargestDifference = Double(
                    zip(fromPostGIS?.values ?? [], fromMemory?.values ?? []).map { abs($0 - $1) / top }.max() ?? 0)
            }
            measured.append(tile)
        }
        var normalization: [PostgresNormalizationMeasurement] = []
        for zoom in normalizationZooms {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let kernel = GaussianKernel(radius: 20)
            var d: Float = 0
            var m: Float = 0
            let database = try Measure.seconds { d = try source.maximumIntensity(space: space, kernel: kernel) } * 1000
            let memory = Measure.seconds { m = bench.index.maximumIntensity(space: space, kernel: kernel) } * 1000
            normalization.append(
                PostgresNormalizationMeasurement(
                    zoom: zoom, databaseMilliseconds: database, memoryMilliseconds: memory, databaseValue: Double(d),
                    memoryValue: Double(m)))
        }
        return PostgresMeasurement(
            rows: summary.rows, importSeconds: seconds, importRowsPerSecond: summary.rowsPerSecond, tiles: measured,
            normalization: normalization, postgis: postgis)
    }
}
