import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres
import Synchronization

/// A tile's SQL alone, both sides (see ``PostgresSQLBenchmark``): microseconds, medians and
/// fastest runs of a round robin on one connection.
struct PostgresSQLMeasurement: Codable {
    /// The rounds timed: each runs HeatmapKit's statements, PostGIS's and `SELECT 1` once.
    var runs: Int
    /// HeatmapKit's tile statement (one; two across the antimeridian), executed and its rows
    /// read, no convolution.
    var heatmapKitMicroseconds: Double
    var heatmapKitMinimumMicroseconds: Double
    /// PostGIS's grid statement(s) of the same tile, executed and its rows read.
    var postgisMicroseconds: Double
    var postgisMinimumMicroseconds: Double
    /// `SELECT 1` on the same connection: the round trip that both statements include.
    var roundTripMicroseconds: Double
    var roundTripMinimumMicroseconds: Double
    /// The rows each side's statements returned (HeatmapKit's includes its change-count row).
    var heatmapKitRows: Int
    var postgisRows: Int
    /// PostGIS ÷ HeatmapKit of the medians: how many times HeatmapKit's SQL is faster.
    var postgisOverHeatmapKit: Double
    /// The median over the rounds of PostGIS ÷ HeatmapKit within a round.
    var postgisOverHeatmapKitPaired: Double
    /// The same of the medians less the round trip's median: the database's and the rows'
    /// share beyond the round trip (`nil` when a side's median is not above the round trip's).
    var postgisOverHeatmapKitBeyondRoundTrip: Double?
    /// The client's making of each side's statements and parameters for the tile (median of
    /// 101, µs; HeatmapKit's joins the key ranges by the cells' row counts, read once before).
    var heatmapKitStatementMicroseconds: Double?
    var postgisStatementMicroseconds: Double?
}

/// Times each side's prepared statements of one tile, with the parameters the tile uses,
/// on one connection that has the pool's settings: warmed 6 times each (the plan cache has
/// then decided between custom and generic plans), then rounds of the three (ours, PostGIS's,
/// `SELECT 1`), each round in the next of the 6 orders so that none always follows another, as many
/// rounds as fit in about `budget` seconds (at least 3, at most 2,001). A round robin of many
/// runs rather than the whole tile's few pairs: a sparse tile's statement is 50-150 µs, where
/// 41 runs leave the median at the mercy of a few scheduler wake-ups.
enum PostgresSQLBenchmark {
    static func measure(
        source: PostgresSource, gis: PostGISGridSource, rect: PixelRect, space: PixelSpace, kernel: GaussianKernel,
        on connection: PostgresConnection, budget: Double = 2
    ) throws -> PostgresSQLMeasurement {
        // The tile's queries, split as the pipeline splits them (one per copy of the world).
        let recorder = QueryRecorder()
        _ = recorder.intensity(in: rect, space: space, kernel: kernel)
        let queries = recorder.queries.withLock { $0 }
        let ours = try queries.map { try source.tileStatement(for: $0) }
        let theirs = queries.map { gis.statement(for: $0) }
        var oursRows = 0
        var theirsRows = 0
        let runOurs = {
            oursRows = try ours.reduce(0) { $0 + (try connection.executeReadingRows($1.sql, $1.parameters)) }
        }
        let runTheirs = {
            theirsRows = try theirs.reduce(0) { $0 + (try connection.executeReadingRows($1.sql, $1.parameters)) }
        }
        let roundTrip = { _ = try connection.executeAsPrepared("SELECT 1", []) }
        let steps = [runOurs, runTheirs, roundTrip]
        var round = 0.0
        for warmup in 0..<6 {
            let took = try steps.reduce(0.0) { $0 + (try Measure.seconds($1)) }
            round = took
            if warmup == 0, took > 1 { break }
        }
        let runs = max(3, min(2001, Int(budget / max(round, 1e-6))))
        // Every order of the three in turn: each side follows the other, and `SELECT 1`, as often.
        let orders = [[0, 1, 2], [1, 0, 2], [2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 2, 0]]
        var times: [[Double]] = [[], [], []]
        for run in 0..<runs {
            for step in orders[run % orders.count] {
                times[step].append(try Measure.seconds(steps[step]) * 1e6)
            }
        }
        let making = try (0..<101).map { _ in
            (
                try Measure.seconds { _ = try queries.map { try source.tileStatement(for: $0) } } * 1e6,
                Measure.seconds { _ = queries.map { gis.statement(for: $0) } } * 1e6
            )
        }
        let (a, b, c) = (Measure.median(times[0]), Measure.median(times[1]), Measure.median(times[2]))
        return PostgresSQLMeasurement(
            runs: runs, heatmapKitMicroseconds: a, heatmapKitMinimumMicroseconds: times[0].min() ?? 0,
            postgisMicroseconds: b, postgisMinimumMicroseconds: times[1].min() ?? 0, roundTripMicroseconds: c,
            roundTripMinimumMicroseconds: times[2].min() ?? 0, heatmapKitRows: oursRows, postgisRows: theirsRows,
            postgisOverHeatmapKit: b / max(a, 1e-9),
            postgisOverHeatmapKitPaired: Measure.median(zip(times[0], times[1]).map { $1 / max($0, 1e-9) }),
            postgisOverHeatmapKitBeyondRoundTrip: a > c && b > c ? (b - c) / (a - c) : nil,
            heatmapKitStatementMicroseconds: Measure.median(making.map(\.0)),
            postgisStatementMicroseconds: Measure.median(making.map(\.1)))
    }
}

/// A source that records the queries a tile makes and answers none: the tile's rectangles
/// exactly as the pipeline splits them.
final class QueryRecorder: WeightSource {
    typealias Failure = Never

    let queries = Mutex<[WeightQuery]>([])

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        queries.withLock { $0.append(query) }
    }
}
