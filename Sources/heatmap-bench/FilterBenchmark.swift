import HeatmapCore
import HeatmapKit

/// The `filters` section (issue 28): the benchmark's points with seeded times over one year
/// and a category, indexed by ``FilterIndex``, against the plain ``PointIndex``.
struct FilterReport: Codable {
    /// Building and holding the index of times and categories against the plain one.
    struct Build: Codable {
        var points: Int
        var slabs: Int
        var plainSeconds: Double
        var filterSeconds: Double
        var buildRatio: Double
        var plainBytes: Int
        var filterBytes: Int
        var memoryRatio: Double
        /// The process CPU seconds of the two builds and the median of their paired ratios.
        var plainCPUSeconds: Double
        var filterCPUSeconds: Double
        var cpuBuildRatio: Double
    }

    /// One window's dense tile at one zoom: the filtered tile (gather + convolve, from the
    /// filter index) against the same tile of a plain index of exactly the window's points
    /// (the same occupied pixels), timed in alternation.
    struct Tile: Codable {
        var window: String
        var tile: String
        var points: Int
        var filteredMs: Double
        var plainMs: Double
        var ratio: Double
        /// The same runs' process CPU milliseconds, and the median of their paired ratios.
        var filteredCPUMs: Double
        var plainCPUMs: Double
        var cpuRatio: Double
    }

    /// One window: its points, and the one-off cost of the filter (masking the slabs it cuts)
    /// before its first tile.
    struct Window: Codable {
        var window: String
        var points: Int
        var setupMs: Double
        var maskedBytes: Int
    }

    var build: Build
    var windows: [Window]
    var tiles: [Tile]
}

enum FilterBenchmark {
    /// 2025 in Unix seconds.
    static let year: Range<Int64> = 1_735_689_600..<1_767_225_600

    /// Seeded times spread over the year, and one of 8 categories, a point.
    static func attributes(count: Int, seed: UInt64) -> (times: [Int64], kinds: [String]) {
        var random = SplitMix64(seed: seed &+ 28)
        let names = (0..<8).map { "kind\($0)" }
        var times: [Int64] = []
        var kinds: [String] = []
        times.reserveCapacity(count)
        kinds.reserveCapacity(count)
        for _ in 0..<count {
            times.append(Int64.random(in: year, using: &random))
            kinds.append(names[Int(random.next() % 8)])
        }
        return (times, kinds)
    }

    static func run(
        data: SyntheticData, index plain: PointIndex, bench: TileBenchmark, zooms: [Int], seed: UInt64,
        repetitions: Int, log: (String) -> Void
    ) throws -> FilterReport {
        let points = data.points
        let (times, kinds) = attributes(count: points.count, seed: seed)
        var filterIndex: FilterIndex?
        var plainIndex: PointIndex?
        // Build both in alternation (the plain one again, so that both see the same load), at
        // most 5 pairs.
        let builds = try Measure.paired(repetitions: max(1, min(repetitions, 5)), warmups: 0, cpu: true) {
            plainIndex = try PointIndex(points: points)
        } _: {
            var builder = FilterIndex.Builder(categoryColumns: ["kind"], capacity: points.count)
            // One row of categories, refilled a point, as the readers keep theirs.
            var row = [""]
            for i in points.indices {
                row[0] = kinds[i]
                try builder.append(
                    latitude: points[i].coordinate.latitude, longitude: points[i].coordinate.longitude,
                    intensity: points[i].intensity, time: times[i], categories: row)
            }
            filterIndex = builder.build()
        }
        guard let index = filterIndex, let plainBuilt = plainIndex else { throw FilterError("no index built") }
        plainIndex = nil
        let build = FilterReport.Build(
            points: points.count, slabs: index.slabCount, plainSeconds: builds.firstMedian / 1000,
            filterSeconds: builds.secondMedian / 1000, buildRatio: builds.pairedRatioMedian,
            plainBytes: plainBuilt.byteCount, filterBytes: index.byteCount,
            memoryRatio: Double(index.byteCount) / Double(plainBuilt.byteCount),
            plainCPUSeconds: Measure.median(builds.firstCPU ?? []) / 1000,
            filterCPUSeconds: Measure.median(builds.secondCPU ?? []) / 1000,
            cpuBuildRatio: builds.pairedCPURatioMedian ?? 0)
        log(
            String(
                format:
                    "filters: build %.2f s vs plain %.2f s (%.2fx, CPU %.2fx), memory %.1f vs %.1f bytes/point (%.2fx), "
                    + "%d slabs",
                build.filterSeconds, build.plainSeconds, build.buildRatio, build.cpuBuildRatio,
                Double(build.filterBytes) / Double(points.count), Double(build.plainBytes) / Double(points.count),
                build.memoryRatio, build.slabs))
        // Windows starting mid-year: an hour, a day, a month (30 days) and the whole year.
        let middle = year.lowerBound + 182 * 86_400 + 12 * 3600
        let windows: [(String, TimeWindow)] = [
            ("hour", TimeWindow(start: middle, end: middle + 3600)),
            ("day", TimeWindow(start: middle, end: middle + 86_400)),
            ("month", TimeWindow(start: middle, end: middle + 30 * 86_400)),
            ("year", TimeWindow(start: year.lowerBound, end: year.upperBound)),
        ]
        var report = FilterReport(build: build, windows: [], tiles: [])
        for (name, window) in windows {
            let kept = points.indices.filter { window.contains(times[$0]) }.map { points[$0] }
            let windowIndex = kept.count == points.count ? plain : try PointIndex(points: kept)
            let filter = PointFilter(window: window, masks: [nil])
            var source: FilteredPoints?
            let setup = Measure.seconds { source = index.filtered(by: filter) }
            guard let source else { continue }
            let masked = source.byteCount - (kept.count == points.count ? source.byteCount : 0)
            report.windows.append(
                FilterReport.Window(window: name, points: kept.count, setupMs: setup * 1000, maskedBytes: masked))
            log(String(format: "filters %@: %d points, filter set up in %.1f ms", name, kept.count, setup * 1000))
            for zoom in zooms {
                guard let dense = try bench.tiles(zoom: zoom, scale: 1).first(where: { $0.kind == "dense" }) else {
                    continue
                }
                let space = try PixelSpace(zoom: zoom, scale: 1)
                let rect = PixelRect(tileX: dense.x, y: dense.y, in: space)
                let kernel = GaussianKernel(radius: 20)
                let times = Measure.paired(repetitions: repetitions, cpu: true) {
                    _ = source.intensity(in: rect, space: space, kernel: kernel)
                } _: {
                    _ = windowIndex.intensity(in: rect, space: space, kernel: kernel)
                }
                let tile = FilterReport.Tile(
                    window: name, tile: "\(zoom)/\(dense.x)/\(dense.y)", points: kept.count,
                    filteredMs: times.firstMedian, plainMs: times.secondMedian,
                    ratio: Measure.median(zip(times.first, times.second).map { $0 / max($1, 1e-9) }),
                    filteredCPUMs: Measure.median(times.firstCPU ?? []),
                    plainCPUMs: Measure.median(times.secondCPU ?? []),
                    cpuRatio: Measure.median(
                        zip(times.firstCPU ?? [], times.secondCPU ?? []).map { $0 / max($1, 1e-9) }))
                report.tiles.append(tile)
                log(
                    String(
                        format: "filters %@ tile %@: filtered %.3f ms, plain %.3f ms (%.2fx, CPU %.2fx)", name,
                        tile.tile.padding(toLength: 16, withPad: " ", startingAt: 0), tile.filteredMs, tile.plainMs,
                        tile.ratio, tile.cpuRatio))
            }
        }
        return report
    }
}
