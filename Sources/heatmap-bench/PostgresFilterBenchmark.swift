import Foundation
import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// The `postgres-filters` section's report: filtered against unfiltered tiles and M(z) from one
/// table, and the plans of a filtered tile's statements.
struct PostgresFilterReport: Codable {
    /// One tile or M(z) both ways.
    struct Pair: Codable {
        var what: String
        var filter: String
        var rounds: Int
        var unfilteredMilliseconds: Double
        var filteredMilliseconds: Double
        /// The median over the rounds of filtered ÷ unfiltered within a round.
        var filteredOverUnfilteredPaired: Double
    }
    /// A filtered tile's statement and its plan (`EXPLAIN (COSTS OFF)`, with the values bound).
    struct Plan: Codable {
        var tile: String
        var filter: String
        var statement: String
        var plan: [String]
    }
    var rows: Int
    /// The load averages at the start and at the end.
    var load: [Double]
    var loadAtEnd: [Double] = []
    var tiles: [Pair] = []
    var maxima: [Pair] = []
    var plans: [Plan] = []
    /// Filtered tiles of the table as made by hand (columns added and filled with `UPDATE`, an index on
    /// the time) against the same rows imported with `--time` and `--categories` (the columns in the key
    /// index's `INCLUDE`).
    struct Copied: Codable {
        var what: String
        var filter: String
        var rounds: Int
        var alteredMilliseconds: Double
        var copiedMilliseconds: Double
        /// The median over the rounds of copied ÷ altered within a round.
        var copiedOverAlteredPaired: Double
    }
    var copied: [Copied] = []
    /// The plans of the copied table's filtered tiles.
    var copiedPlans: [Plan] = []
    /// The copied table's time windows through its time summaries against the rows alone.
    var timeSummaries: TimeSummaryReport?
}

/// `--only postgres-filters`: a table of `rows` of the benchmark's seeded points
/// (`heatmap_bench_filters`, imported unless it holds as many) with a time over 2024 and a
/// category of four values derived from each row's position, a B-tree on the time; tiles from dense
/// to sparse and M(z), each filtered (a day, a month, the year, a month of one category) against
/// unfiltered, in alternation on the same layer's statements; and the same filtered tiles of the rows
/// imported with their time and category (`heatmap_bench_filters_copied`, as `heatmap import --time
/// --categories` makes it) against the first table's.
enum PostgresFilterBenchmark {
    static let kinds = ["burglary", "theft", "assault", "arson"]

    /// A point's time and kind, from its fixed-point position as the tables store it (the SQL of
    /// the `UPDATE` computes the same from `x` and `y`).
    static func fields(_ point: WeightedLatLng) -> (Int64, String) {
        let x = Int64(WebMercator.unitX(longitude: point.coordinate.longitude))
        let y = Int64(WebMercator.unitY(latitude: point.coordinate.latitude))
        return (1_704_067_200 + (x * 31 + y) % 31_622_400, kinds[Int(((x ^ y) >> 3) % 4)])
    }

    /// Imports `points` into `name` with their time as `reported` and kind as `kind`, as `heatmap
    /// import --time reported --time-summaries --categories kind` does.
    static func importCopied(_ points: [WeightedLatLng], into name: String, connection: ConnectionString) throws {
        let importer = try PostgresImporter(
            table: name, connection: connection, mode: .replace,
            fields: ImportedFields(timeColumn: "reported", categoryColumns: ["kind"], timeSummaries: true))
        var next = 0
        while next < points.count {
            let chunk = points[next..<min(points.count, next + (1 << 15))]
            var values = PointChunkFields(categoryColumns: 1)
            for point in chunk {
                let (time, kind) = fields(point)
                values.times.append(time)
                values.categories[0].append(kind)
            }
            try importer.append(chunk, values: values)
            next += chunk.count
        }
        _ = try importer.finish()
    }

    static func run(url: String, rows: Int, seed: UInt64, log: (String) -> Void) throws -> PostgresFilterReport {
        let conninfo = ConnectionString(url)
        let name = "heatmap_bench_filters"
        let connection = try PostgresConnection(conninfo)
        let present =
            try connection.execute("SELECT to_regclass($1) IS NOT NULL", [name]).text(0, 0) == "t"
            ? try connection.execute("SELECT count(*) FROM \(name)").text(0, 0).flatMap { Int($0) } : nil
        let copiedPresent =
            try connection.execute("SELECT to_regclass($1) IS NOT NULL", [name + "_copied"]).text(0, 0) == "t"
        if present != rows || !copiedPresent {
            log("postgres-filters: importing \(rows) rows into \(name)")
            let data = SyntheticData(count: rows, seed: seed)
            _ = try PostgresImport.run(points: data.points, into: name, connection: conninfo, mode: .replace)
            log("postgres-filters: importing \(rows) rows with their times and kinds into \(name)_copied")
            try importCopied(data.points, into: name + "_copied", connection: conninfo)
            try connection.execute(
                """
                ALTER TABLE \(name) ADD COLUMN reported timestamptz, ADD COLUMN kind text
                """)
            try connection.execute(
                """
                UPDATE \(name) SET reported = to_timestamp(1704067200 + mod(x * 31 + y, 31622400)), \
                kind = (ARRAY['burglary', 'theft', 'assault', 'arson'])[mod((x # y) >> 3, 4) + 1]
                """)
            try connection.execute("CREATE INDEX ON \(name) (reported)")
            try connection.execute("VACUUM ANALYZE \(name)")
        }
        var table = PostgresTable(name: name)
        table.timeColumn = "reported"
        table.categoryColumns = ["kind"]
        let source = try PostgresSource(connection: conninfo, table: table)
        var copiedTable = table
        copiedTable.name = name + "_copied"
        let copiedSource = try PostgresSource(connection: conninfo, table: copiedTable)
        let filters: [(String, TimeWindow, [CategorySelection])] = [
            ("2024-06-01/2024-06-02", try TimeWindow(parsing: "2024-06-01/2024-06-02"), []),
            ("2024-06-01/2024-07-01", try TimeWindow(parsing: "2024-06-01/2024-07-01"), []),
            ("2024-01-01/2025-01-01", try TimeWindow(parsing: "2024-01-01/2025-01-01"), []),
            (
                "2024-06-01/2024-07-01 kind:theft", try TimeWindow(parsing: "2024-06-01/2024-07-01"),
                [CategorySelection(column: "kind", values: ["theft"])]
            ),
        ]
        var report = PostgresFilterReport(rows: rows, load: (Machine.describe().loadAverage ?? []))
        let plain = HeatmapTileLayer(source: source)
        for (label, window, categories) in filters {
            let filtered = try source.filtered(window: window, categories: categories)
            let layer = HeatmapTileLayer(source: filtered)
            let copied = try copiedSource.filtered(window: window, categories: categories)
            let copiedLayer = HeatmapTileLayer(source: copied)
            for (zoom, scale) in [(4, 1), (8, 2), (11, 1), (14, 2)] {
                let n = Double(1 << zoom)
                let x = Int((-97.5 + 180) / 360 * n)
                let y = Int((1 - Foundation.log(tan(37.5 * .pi / 180) + 1 / cos(37.5 * .pi / 180)) / .pi) / 2 * n)
                let pair = try paired(what: "tile \(zoom)/\(x)/\(y)@\(scale)x", filter: label, rounds: 5) {
                    _ = try plain.intensity(x: x, y: y, zoom: zoom, scale: scale)
                } filtered: {
                    _ = try layer.intensity(x: x, y: y, zoom: zoom, scale: scale)
                }
                log(line(pair))
                report.tiles.append(pair)
                let times = try Measure.paired(repetitions: 5, warmups: 1, slow: 30) {
                    _ = try layer.intensity(x: x, y: y, zoom: zoom, scale: scale)
                } _: {
                    _ = try copiedLayer.intensity(x: x, y: y, zoom: zoom, scale: scale)
                }
                let compared = PostgresFilterReport.Copied(
                    what: pair.what, filter: label, rounds: times.first.count, alteredMilliseconds: times.firstMedian,
                    copiedMilliseconds: times.secondMedian, copiedOverAlteredPaired: times.pairedRatioMedian)
                log(
                    String(
                        format: "postgres-filters %@ %@ altered %9.2f ms, copied %9.2f ms (paired %.2fx)",
                        pair.what, label, compared.alteredMilliseconds, compared.copiedMilliseconds,
                        compared.copiedOverAlteredPaired))
                report.copied.append(compared)
                if zoom == 8 || zoom == 14, categories.isEmpty, label.hasSuffix("07-01") {
                    let space = try PixelSpace(zoom: zoom, scale: scale)
                    let rect = PixelRect(tileX: x, y: y, in: space)
                    let recorder = QueryRecorder()
                    _ = recorder.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20 * scale))
                    if let query = recorder.queries.withLock({ $0 }).first {
                        let (statement, plan) = try filtered.explained(query)
                        report.plans.append(
                            .init(tile: "\(zoom)/\(x)/\(y)@\(scale)x", filter: label, statement: statement, plan: plan))
                        let copiedPlan = try copied.explained(query)
                        report.copiedPlans.append(
                            .init(
                                tile: "\(zoom)/\(x)/\(y)@\(scale)x", filter: label, statement: copiedPlan.statement,
                                plan: copiedPlan.plan))
                    }
                }
            }
            for zoom in [3, 6] {
                let space = try PixelSpace(zoom: zoom, scale: 1)
                let kernel = GaussianKernel(radius: 20)
                let pair = try paired(what: "M(\(zoom))", filter: label, rounds: 3) {
                    _ = try source.searchedMaximum(space: space, kernel: kernel)
                } filtered: {
                    _ = try filtered.searchedMaximum(space: space, kernel: kernel)
                }
                log(line(pair))
                report.maxima.append(pair)
            }
        }
        report.timeSummaries = try PostgresTimeSummaryBenchmark.run(
            source: copiedSource, filters: filters.filter { $0.2.isEmpty }.map { ($0.0, $0.1) }, rounds: 5, log: log)
        report.loadAtEnd = Machine.describe().loadAverage ?? []
        return report
    }

    /// `rounds` rounds of both, which first alternating, after one of each to warm up
    /// (``Measure/paired(repetitions:warmups:slow:_:_:)``).
    static func paired(
        what: String, filter: String, rounds: Int, unfiltered: () throws -> Void, filtered: () throws -> Void
    ) throws -> PostgresFilterReport.Pair {
        let times = try Measure.paired(repetitions: rounds, warmups: 1, slow: 30, unfiltered, filtered)
        return .init(
            what: what, filter: filter, rounds: times.first.count, unfilteredMilliseconds: times.firstMedian,
            filteredMilliseconds: times.secondMedian, filteredOverUnfilteredPaired: times.pairedRatioMedian)
    }

    static func line(_ pair: PostgresFilterReport.Pair) -> String {
        String(
            format: "postgres-filters %@ %@ unfiltered %9.2f ms, filtered %9.2f ms (paired %.2fx, %d rounds)",
            pair.what.padding(toLength: 18, withPad: " ", startingAt: 0),
            pair.filter.padding(toLength: 34, withPad: " ", startingAt: 0), pair.unfilteredMilliseconds,
            pair.filteredMilliseconds, pair.filteredOverUnfilteredPaired, pair.rounds)
    }
}
