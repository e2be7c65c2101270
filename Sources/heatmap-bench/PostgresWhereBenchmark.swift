import Foundation
import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// One tile's statements with a `--where` condition, both ways (see ``PostgresWhereBenchmark``).
struct PostgresWhereMeasurement: Codable {
    var tile: String
    var condition: String
    /// Round-robin rounds timed (each runs both statements once, which first alternating).
    var runs: Int
    /// Median microseconds of the statement with the text written in it (`AND (text)`, as before).
    var inlineMicroseconds: Double
    /// Median microseconds of the statement calling the condition's function (as now).
    var functionMicroseconds: Double
    /// The median over the rounds of function ÷ inline within a round (1 = as fast).
    var functionOverInlinePaired: Double
    /// The rows each returned (equal: the same pixels).
    var inlineRows: Int
    var functionRows: Int
}

/// `--only postgres-where`: whether a `--where` condition as a function of the row (which
/// PostgreSQL inlines) costs tile statements anything against the text written into them, as
/// it was. A table of `rows` of the benchmark's seeded points (`heatmap_bench_where`, imported
/// unless it holds as many), a condition on the weight, and tiles from dense to sparse; each
/// tile's two statements as a round robin on one connection with the pool's settings, as
/// many rounds as fit in about `budget` seconds (at least 21).
enum PostgresWhereBenchmark {
    static func run(url: String, rows: Int, seed: UInt64, log: (String) -> Void, budget: Double = 3) throws
        -> [PostgresWhereMeasurement]
    {
        let conninfo = ConnectionString(url)
        let table = "heatmap_bench_where"
        let connection = try PostgresConnection(conninfo)
        try connection.applyPoolSettings()
        let present =
            try connection.execute("SELECT to_regclass($1) IS NOT NULL", [table]).text(0, 0) == "t"
            ? try connection.execute("SELECT count(*) FROM \(table)").text(0, 0).flatMap { Int($0) } : nil
        if present != rows {
            log("postgres-where: importing \(rows) rows into \(table)")
            let data = SyntheticData(count: rows, seed: seed)
            _ = try PostgresImport.run(points: data.points, into: table, connection: conninfo, mode: .replace)
        }
        let condition = "weight > 0.5"
        let source = try PostgresSource(connection: conninfo, table: PostgresTable(name: table, filter: condition))
        try source.prepareSession(connection)
        let inline = source.inliningCondition()
        var out: [PostgresWhereMeasurement] = []
        // Dense to sparse over the data's middle (about 37.5° N, 97.5° W).
        for (zoom, scale) in [(4, 1), (8, 2), (11, 1), (14, 2)] {
            let space = try PixelSpace(zoom: zoom, scale: scale)
            let n = Double(1 << zoom)
            let x = Int((-97.5 + 180) / 360 * n)
            let y = Int((1 - Foundation.log(tan(37.5 * .pi / 180) + 1 / cos(37.5 * .pi / 180)) / .pi) / 2 * n)
            let rect = PixelRect(tileX: x, y: y, in: space)
            let recorder = QueryRecorder()
            _ = recorder.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20 * scale))
            let queries = recorder.queries.withLock { $0 }
            let a = try queries.map { try inline.tileStatement(for: $0) }
            let b = try queries.map { try source.tileStatement(for: $0) }
            var rowsA = 0
            var rowsB = 0
            let runA = { rowsA = try a.reduce(0) { $0 + (try connection.executeReadingRows($1.sql, $1.parameters)) } }
            let runB = { rowsB = try b.reduce(0) { $0 + (try connection.executeReadingRows($1.sql, $1.parameters)) } }
            var round = 0.0
            for _ in 0..<6 { round = try Measure.seconds(runA) + Measure.seconds(runB) }
            let runs = max(21, min(4001, Int(budget / max(round, 1e-6))))
            var times: ([Double], [Double]) = ([], [])
            for run in 0..<runs {
                if run % 2 == 0 {
                    times.0.append(try Measure.seconds(runA) * 1e6)
                    times.1.append(try Measure.seconds(runB) * 1e6)
                } else {
                    times.1.append(try Measure.seconds(runB) * 1e6)
                    times.0.append(try Measure.seconds(runA) * 1e6)
                }
            }
            let measured = PostgresWhereMeasurement(
                tile: "\(zoom)/\(x)/\(y)@\(scale)x", condition: condition, runs: runs,
                inlineMicroseconds: Measure.median(times.0), functionMicroseconds: Measure.median(times.1),
                functionOverInlinePaired: Measure.median(zip(times.0, times.1).map { $1 / max($0, 1e-9) }),
                inlineRows: rowsA, functionRows: rowsB)
            log(
                String(
                    format:
                        "postgres-where %@ inline %8.1f us, function %8.1f us (paired %.3fx), rows %d / %d, %d runs",
                    measured.tile.padding(toLength: 18, withPad: " ", startingAt: 0), measured.inlineMicroseconds,
                    measured.functionMicroseconds, measured.functionOverInlinePaired, rowsA, rowsB, runs))
            out.append(measured)
        }
        return out
    }
}
