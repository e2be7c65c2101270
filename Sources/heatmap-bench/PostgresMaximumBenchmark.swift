import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapPostgres

/// M(z) of a large imported table by the kernel-bounded search against the weight-bounded
/// one it replaced (`--only postgres-maximum`), the two interleaved zoom by zoom (which goes
/// first alternates), so that both figures of a zoom come from the same minutes.
struct PostgresMaximumMeasurement: Codable {
    var table: String
    var rows: Int
    var zoom: Int
    var scale: Int
    var radius: Int
    /// Seconds of the kernel-bounded search (`PostgresSource.MaximumSearch.kernel`), and its M(z).
    var kernelSeconds: Double
    var kernelValue: Float
    /// Seconds of the weight-bounded search (`.pruned`, the one before), and its M(z).
    var prunedSeconds: Double
    var prunedValue: Float
    /// Which ran first.
    var kernelFirst: Bool
}

enum PostgresMaximumBenchmark {
    /// Measures both searches at each zoom over `table` (imported with `rows` of the
    /// benchmark's data unless it holds that many already).
    static func run(
        url: String, table: String, rows: Int, seed: UInt64, zooms: [Int], log: (String) -> Void
    ) throws -> [PostgresMaximumMeasurement] {
        let conninfo = ConnectionString(url)
        let connection = try PostgresConnection(conninfo)
        let quoted = PostgresConnection.quoted(identifier: table)
        let present =
            try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).text(0, 0) == "t"
            ? try connection.execute("SELECT count(*) FROM \(quoted)").text(0, 0).flatMap { Int($0) } : nil
        if present != rows {
            log("postgres maximum: generating and importing \(rows) rows into \(table)")
            let data = SyntheticData(count: rows, seed: seed)
            _ = try PostgresImport.run(points: data.points, into: table, connection: conninfo, mode: .replace)
        }
        let source = try PostgresSource(connection: conninfo, table: PostgresTable(name: table))
        var out: [PostgresMaximumMeasurement] = []
        for (i, zoom) in zooms.enumerated() {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let kernel = GaussianKernel(radius: 20)
            var kernelResult: (Double, Float) = (0, 0)
            var prunedResult: (Double, Float) = (0, 0)
            let kernelFirst = i % 2 == 0
            for search in kernelFirst ? [true, false] : [false, true] {
                var value: Float = 0
                let seconds = try Measure.seconds {
                    value = try source.maximumIntensity(
                        space: space, kernel: kernel, search: search ? .kernel : .pruned)
                }
                if search { kernelResult = (seconds, value) } else { prunedResult = (seconds, value) }
                log(
                    String(
                        format: "postgres maximum M(%d) %@: %.1f s, %.6g", zoom, search ? "kernel" : "pruned", seconds,
                        value))
            }
            out.append(
                PostgresMaximumMeasurement(
                    table: table, rows: rows, zoom: zoom, scale: 1, radius: 20, kernelSeconds: kernelResult.0,
                    kernelValue: kernelResult.1, prunedSeconds: prunedResult.0, prunedValue: prunedResult.1,
                    kernelFirst: kernelFirst))
        }
        return out
    }
}
