import Foundation
import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// M(z) of a large imported table (`--only postgres-maximum`): each zoom's search, in one
/// snapshot, neither read from nor kept in `heatmap_maxima`. `scripts/bench/maximum_ab.py` runs two
/// builds against each other, a zoom at a time in fresh processes.
struct PostgresMaximumMeasurement: Codable {
    var table: String
    var rows: Int
    var zoom: Int
    var scale: Int
    var radius: Int
    var seconds: Double
    var value: Float
}

enum PostgresMaximumBenchmark {
    /// Searches M(z) at each zoom over `table` (imported with `rows` of the benchmark's data
    /// unless it holds that many already).
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
        for zoom in zooms {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            var value: Float = 0
            let seconds = try Measure.seconds {
                value = try source.searchedMaximum(space: space, kernel: GaussianKernel(radius: 20))
            }
            log(String(format: "postgres maximum M(%d) search: %.3f s, %.9g", zoom, seconds, value))
            out.append(
                PostgresMaximumMeasurement(
                    table: table, rows: rows, zoom: zoom, scale: 1, radius: 20, seconds: seconds, value: value))
        }
        return out
    }
}
