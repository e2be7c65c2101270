import Foundation
import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// The time summaries' figures: an imported table's time-filtered tiles and M(z) read through
/// its time summaries against the same from the rows alone (as before them), and against the
/// unfiltered ones, each paired in one run.
struct TimeSummaryReport: Codable {
    /// One tile or M(z) three ways.
    struct Triple: Codable {
        var what: String
        var filter: String
        var rounds: Int
        /// The window from the rows alone.
        var rowsMilliseconds: Double
        /// The window through the time summaries.
        var summariesMilliseconds: Double
        /// The median over the rounds of summaries ÷ rows within a round.
        var summariesOverRowsPaired: Double
        /// The unfiltered tile or M(z) (a run of its own, paired with the summaries' again).
        var unfilteredMilliseconds: Double
        /// The median over the rounds of summaries ÷ unfiltered within a round.
        var summariesOverUnfilteredPaired: Double
    }
    /// Each span's finest level kept (spans of 1, 8, 64 and 512 days).
    var finestLevels: [Int] = []
    var tiles: [Triple] = []
    var maxima: [Triple] = []
    /// The plan of a coarse tile's statement of the year through the summaries.
    var plans: [PostgresFilterReport.Plan] = []
}

enum PostgresTimeSummaryBenchmark {
    /// `rounds` rounds of each pair for `filters` on `source` (an imported table with time
    /// summaries): tiles of zooms 4 and 8 and M(3), M(6).
    static func run(
        source: PostgresSource, filters: [(String, TimeWindow)], rounds: Int, log: (String) -> Void
    ) throws -> TimeSummaryReport {
        var report = TimeSummaryReport(finestLevels: source.timeSummaryLevels ?? [])
        let plain = HeatmapTileLayer(source: source)
        for (label, window) in filters {
            let summaries = try source.filtered(window: window, categories: [])
            let rows = summaries.withoutTimeSummaries()
            let (withLayer, rowsLayer) = (HeatmapTileLayer(source: summaries), HeatmapTileLayer(source: rows))
            for (zoom, scale) in [(2, 1), (4, 1), (6, 2), (8, 2)] {
                let n = Double(1 << zoom)
                let x = Int((-97.5 + 180) / 360 * n)
                let y = Int((1 - Foundation.log(tan(37.5 * .pi / 180) + 1 / cos(37.5 * .pi / 180)) / .pi) / 2 * n)
                let triple = try measure(what: "tile \(zoom)/\(x)/\(y)@\(scale)x", filter: label, rounds: rounds) {
                    _ = try rowsLayer.intensity(x: x, y: y, zoom: zoom, scale: scale)
                } summaries: {
                    _ = try withLayer.intensity(x: x, y: y, zoom: zoom, scale: scale)
                } unfiltered: {
                    _ = try plain.intensity(x: x, y: y, zoom: zoom, scale: scale)
                }
                log(line(triple))
                report.tiles.append(triple)
                if zoom == 2, label.hasPrefix("2024-01-01") {
                    let space = try PixelSpace(zoom: zoom, scale: scale)
                    let rect = PixelRect(tileX: x, y: y, in: space)
                    let recorder = QueryRecorder()
                    _ = recorder.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20 * scale))
                    // The largest of the tile's queries (the first may be a strip across the antimeridian).
                    let queries = recorder.queries.withLock { $0 }
                    if let query = queries.max(by: {
                        $0.columns.count * $0.rows.count < $1.columns.count * $1.rows.count
                    }) {
                        let (statement, plan) = try summaries.explained(query)
                        report.plans.append(
                            .init(tile: "\(zoom)/\(x)/\(y)@\(scale)x", filter: label, statement: statement, plan: plan))
                    }
                }
            }
            for zoom in [3, 6] {
                let space = try PixelSpace(zoom: zoom, scale: 1)
                let kernel = GaussianKernel(radius: 20)
                let triple = try measure(what: "M(\(zoom))", filter: label, rounds: rounds) {
                    _ = try rows.searchedMaximum(space: space, kernel: kernel)
                } summaries: {
                    _ = try summaries.searchedMaximum(space: space, kernel: kernel)
                } unfiltered: {
                    _ = try source.searchedMaximum(space: space, kernel: kernel)
                }
                log(line(triple))
                report.maxima.append(triple)
            }
        }
        return report
    }

    static func measure(
        what: String, filter: String, rounds: Int, rows: () throws -> Void, summaries: () throws -> Void,
        unfiltered: () throws -> Void
    ) throws -> TimeSummaryReport.Triple {
        let a = try Measure.paired(repetitions: rounds, warmups: 1, slow: .infinity, rows, summaries)
        let b = try Measure.paired(repetitions: rounds, warmups: 1, slow: .infinity, unfiltered, summaries)
        return .init(
            what: what, filter: filter, rounds: a.first.count, rowsMilliseconds: a.firstMedian,
            summariesMilliseconds: a.secondMedian, summariesOverRowsPaired: a.pairedRatioMedian,
            unfilteredMilliseconds: b.firstMedian, summariesOverUnfilteredPaired: b.pairedRatioMedian)
    }

    static func line(_ t: TimeSummaryReport.Triple) -> String {
        String(
            format: "postgres-time %@ %@ rows %9.2f ms, summaries %9.2f ms (paired %.2fx), unfiltered %9.2f ms (%.2fx)",
            t.what.padding(toLength: 16, withPad: " ", startingAt: 0),
            t.filter.padding(toLength: 34, withPad: " ", startingAt: 0), t.rowsMilliseconds, t.summariesMilliseconds,
            t.summariesOverRowsPaired, t.unfilteredMilliseconds, t.summariesOverUnfilteredPaired)
    }
}
