import Foundation
import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

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
    /// Whether PostGIS's statements gave HeatmapKit's rows on every tile (`nil` without PostGIS);
    /// a tile where they did not has no PostGIS time, only the difference (`postgisRows`).
    var postgisSameRowsEveryTile: Bool?
    /// `heatmap serve --postgres` over a large table (`--postgres-serve-rows`), or `nil`.
    var serve: PostgresServeMeasurement?
}

/// One tile's gather + convolve from the database and from memory (medians, milliseconds).
/// The database's tile is drawn as `serve`, `tile` and `render` draw it: from a version pinned
/// to the table's change count, which each tile checks.
struct PostgresTileMeasurement: Codable {
    var tile: String
    var kind: String
    var databaseMilliseconds: Double
    var memoryMilliseconds: Double
    var ratio: Double
    var sameIntensities: Bool
    /// The fastest of the database's repetitions.
    var databaseMinimumMilliseconds: Double?
    /// The pairs timed (fewer for a tile whose pair takes over 2 s, see ``Measure/paired``).
    var repetitions: Int?
    /// The same tile the PostGIS way (see ``PostGISGridSource``), blurred by the same code;
    /// `nil` without PostGIS. Timed in alternation with the database's (see ``Measure/paired``).
    var postgisMilliseconds: Double?
    /// The fastest of PostGIS's repetitions.
    var postgisMinimumMilliseconds: Double?
    /// `postgisMilliseconds / databaseMilliseconds`: how many times HeatmapKit's whole tile is
    /// faster (its SQL alone is in `sql`).
    var postgisOverDatabase: Double?
    /// The same of the fastest repetitions.
    var postgisOverDatabaseMinimum: Double?
    /// The median of PostGIS ÷ HeatmapKit over the pairs run back to back.
    var postgisOverDatabasePaired: Double?
    /// The largest difference of a pixel's intensity between the PostGIS grid and HeatmapKit's,
    /// relative to the tile's largest (PostGIS's projection puts a few points in a neighbouring pixel).
    var postgisLargestDifference: Double?
    /// Each side's SQL alone on this tile, with `SELECT 1`'s round trip (see
    /// ``PostgresSQLBenchmark``); `nil` without PostGIS.
    var sql: PostgresSQLMeasurement?
    /// Whether PostGIS's statements gave HeatmapKit's rows for this tile, checked before either
    /// is timed (see ``PostgresRowCheck``); PostGIS's figures are left out when they did not.
    var postgisRows: PostgresRowComparison?
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
    /// Imports the points into `heatmap_bench` (replacing it; with `reuse`, kept when an
    /// earlier run left the same seeded points there), then draws the benchmark's tiles from
    /// it and from memory, and the PostGIS way in alternation with it; M(z) at
    /// `normalizationZooms`.
    static func run(
        url: String, bench: TileBenchmark, tiles: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)],
        normalizationZooms: [Int], repetitions: Int, seed: UInt64, reuse: Bool, log: (String) -> Void
    ) throws -> PostgresMeasurement {
        let connection = ConnectionString(url)
        let gisConnection = try PostgresConnection(connection)
        try gisConnection.applyPoolSettings()
        let points = bench.data.points
        let label = "heatmap-bench: \(points.count) points of seed \(seed)"
        var rows = points.count
        var seconds = 0.0
        var rate = 0.0
        if reuse, try comment(on: "heatmap_bench", gisConnection) == label {
            log("postgres: reusing heatmap_bench (\(label))")
        } else {
            let summary = try PostgresImport.run(
                points: points, into: "heatmap_bench", connection: connection, mode: .replace)
            rows = summary.rows
            seconds = summary.duration.seconds
            rate = summary.rowsPerSecond
            try gisConnection.execute("COMMENT ON TABLE heatmap_bench IS \(literal(label))")
            log(String(format: "postgres: imported %d rows in %.1f s", rows, seconds))
        }
        let table = try PostgresSource(connection: connection, table: PostgresTable(name: "heatmap_bench"))
        // Drawn as serve draws it: pinned to the change count, checked by every tile.
        let source = table.pinned(toChangeCount: try table.changeCount())
        // The PostGIS way on the same rows, when the server has PostGIS.
        var postgis = "missing: PostGIS is not installed on the server (apt-get install postgresql-15-postgis-3)"
        var gis: PostGISGridSource?
        if reuse, try comment(on: "heatmap_bench_postgis", gisConnection) == label {
            postgis = try PostGISGridSource.version(on: gisConnection).map { "PostGIS \($0)" } ?? postgis
            gis = PostGISGridSource(connection: gisConnection, table: "heatmap_bench_postgis")
        } else if let version = try PostGISGridSource.prepare(
            source: "heatmap_bench", target: "heatmap_bench_postgis", on: gisConnection)
        {
            try gisConnection.execute("COMMENT ON TABLE heatmap_bench_postgis IS \(literal(label))")
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
            var fromPostGIS: IntensityGrid?
            let draw = { fromDatabase = try source.intensity(in: rect, space: space, kernel: kernel) }
            // The same rows first: a PostGIS statement that answers other rows gets no time.
            let rowCheck = try gis.map {
                try PostgresRowCheck.compare(
                    source: source, gis: $0, rect: rect, space: space, kernel: kernel, on: gisConnection)
            }
            let timedGIS = rowCheck?.same == true ? gis : nil
            if let rowCheck, !rowCheck.same {
                log(
                    "postgres tile \(t.zoom)/\(t.x)/\(t.y)@\(t.scale)x: PostGIS's rows differ from HeatmapKit's, not timed: "
                        + "\(rowCheck.onlyHeatmapKit) pixels only in HeatmapKit's, \(rowCheck.onlyPostGIS) only in PostGIS's, "
                        + "weights off by \(rowCheck.largestRelativeDifference) at most; \(rowCheck.examples)")
            }
            let times: PairedTimes
            if let gis = timedGIS {
                times = try Measure.paired(
                    repetitions: repetitions, draw,
                    { fromPostGIS = try gis.intensity(in: rect, space: space, kernel: kernel) })
            } else {
                times = try Measure.paired(repetitions: repetitions, draw, {})
            }
            let memory = Measure.median(
                (0..<repetitions).map { _ in
                    Measure.seconds { fromMemory = bench.index.intensity(in: rect, space: space, kernel: kernel) }
                        * 1000
                })
            let same =
                zip(fromDatabase?.values ?? [], fromMemory?.values ?? []).allSatisfy {
                    abs($0 - $1) <= 1e-6 * max($0, $1)
                } && fromDatabase?.values.count == fromMemory?.values.count
            let database = times.firstMedian
            var tile = PostgresTileMeasurement(
                tile: "\(t.zoom)/\(t.x)/\(t.y)\(t.scale == 1 ? "" : "@\(t.scale)x")", kind: t.kind,
                databaseMilliseconds: database, memoryMilliseconds: memory, ratio: database / max(memory, 1e-9),
                sameIntensities: same, databaseMinimumMilliseconds: times.firstMinimum,
                repetitions: times.first.count)
            tile.postgisRows = rowCheck
            if timedGIS != nil {
                let top = max(fromMemory?.maximum ?? 0, .leastNormalMagnitude)
                tile.postgisMilliseconds = times.secondMedian
                tile.postgisMinimumMilliseconds = times.secondMinimum
                tile.postgisOverDatabase = times.secondMedian / max(database, 1e-9)
                tile.postgisOverDatabaseMinimum = times.secondMinimum / max(times.firstMinimum, 1e-9)
                tile.postgisOverDatabasePaired = times.pairedRatioMedian
                let gisValues: [Float] = fromPostGIS?.values ?? []
                let memoryValues: [Float] = fromMemory?.values ?? []
                let differences: [Float] = zip(gisValues, memoryValues).map { abs($0 - $1) / top }
                tile.postgisLargestDifference = Double(differences.max() ?? 0)
            }
            if let gis = timedGIS {
                tile.sql = try PostgresSQLBenchmark.measure(
                    source: source, gis: gis, rect: rect, space: space, kernel: kernel, on: gisConnection)
            }
            measured.append(tile)
        }
        var normalization: [PostgresNormalizationMeasurement] = []
        for zoom in normalizationZooms {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let kernel = GaussianKernel(radius: 20)
            var d: Float = 0
            var m: Float = 0
            let database =
                try Measure.seconds { d = try source.searchedMaximum(space: space, kernel: kernel) }
                * 1000
            let memory = Measure.seconds { m = bench.index.maximumIntensity(space: space, kernel: kernel) } * 1000
            normalization.append(
                PostgresNormalizationMeasurement(
                    zoom: zoom, databaseMilliseconds: database, memoryMilliseconds: memory, databaseValue: Double(d),
                    memoryValue: Double(m)))
        }
        return PostgresMeasurement(
            rows: rows, importSeconds: seconds, importRowsPerSecond: rate, tiles: measured,
            normalization: normalization, postgis: postgis,
            postgisSameRowsEveryTile: gis == nil ? nil : measured.allSatisfy { $0.postgisRows?.same == true })
    }

    /// The comment on `table`, or `nil` (no table, or no comment).
    static func comment(on table: String, _ connection: PostgresConnection) throws -> String? {
        try connection.execute("SELECT obj_description(to_regclass($1), 'pg_class')", [table]).text(0, 0)
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
