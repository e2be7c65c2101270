import Foundation
@_spi(Benchmark) import HeatmapCore
import HeatmapKit

// heatmap-bench: seeded data, measurements, JSON out. See docs/reference/benchmark.md.

let usage = """
    usage: heatmap-bench [--points N] [--sizes N,N,...] [--zooms Z,Z,...] [--repetitions N] [--seed N]
                         [--quick] [--only SECTIONS] [--json FILE] [--export DIR] [--postgres URL] [--shard URL] [--help]
      --points N        the data size for tiles, the reference, M(z) and throughput (default 1000000)
      --sizes           sizes for index building and scaling (default 100000,1000000,10000000)
      --zooms           zooms for tiles and M(z) (default 3,6,9,12,16)
      --quick           sizes 100000,1000000 and 3 repetitions
      --only SECTIONS   measure only these, comma-separated: readers, index, tiles, scaling,
                        bytes, stacked, normalization, throughput, encoders, render, postgres,
                        postgres-sharded, postgres-render, mean, percentile, live, live-serve, uncached,
                        postgres-maximum, postgres-where, filters, postgres-filters
                        (the index is always built)
      --uncached-tiles  for uncached: tiles Z/X/Y[@2x], comma-separated (default: the dense and
                        sparse tiles of zoom 16 and the dense one of zoom 10 at 512 px, and 0/0/0@2x)
      --uncached-zoom, --uncached-scale, --uncached-limit  uncached's throughput pass: the tiles
                        with data at that zoom and scale (at most the limit, evenly spread), on all
                        cores (default 9, 2 and 600)
      --uncached-pause-ms N  for uncached: sleep N ms between two renders of a tile, as a server's
                        render thread waits between requests (default 0: back to back)
      --json FILE       also write the JSON report to FILE (it always goes to standard output)
      --postgres URL    for the postgres section: import the --points data into table heatmap_bench
                        there, and draw the tiles from it and from memory (skipped without a URL)
      --postgres-zooms  zooms of M(z) from the database (default 3,6)
      --postgres-reuse  keep heatmap_bench and heatmap_bench_postgis when an earlier run left the
                        same seeded --points there (no import figure then); the tiles are timed at
                        least 7 times, HeatmapKit's and PostGIS's in alternation
      --postgres-serve-rows N  also import N rows (20000000 for the documented figure) into heatmap_bench_serve
                        (kept for later runs), serve it with the heatmap built beside heatmap-bench,
                        ask for the tiles and read the server's resident memory (default 0: not done)
      --postgres-where-rows N  for postgres-where: the rows of heatmap_bench_where (default 1000000)
      --postgres-filters-rows N  for postgres-filters: the rows of heatmap_bench_filters (default 1000000)
      --postgres-maximum-rows N  for postgres-maximum: the rows of heatmap_bench_serve (imported
                        when it holds another count; 20000000 for the documented figure), whose M(z) at each of
                        --postgres-zooms is searched (scripts/bench/maximum_ab.py: two builds against each other)
      --shard URL       for postgres-sharded (repeat): the same rows imported over these shards with
                        --postgres as coordinator, against --postgres alone (bench/postgres_sharded.sh)
      --tile-images DIR for bytes: write each tile's RGBA and palette PNG there (bench/pillow_sizes.py
                        adds Pillow's optimize=True sizes from them)
      --color-map-size N for bytes: the palette PNG's map has N entries (2...256; default the server's 255)
      --export DIR      write the --points data to DIR/points.f64 (latitude, longitude, weight as
                        little-endian float64 triples) for bench/compare_datashader.py
    """

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == IndexPeak.childFlag {
    IndexPeak.runChild(arguments: Array(CommandLine.arguments.dropFirst(2)))
}
var options = BenchmarkOptions()
if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print(usage)
    exit(0)
}
do {
    options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("heatmap-bench: \(error)\n\(usage)\n".utf8))
    exit(64)
}

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

var report = Report(machine: .describe(), seed: options.seed, radius: 20, repetitions: options.repetitions)
log("machine: \(report.machine.processor), \(report.machine.cores) cores, \(report.machine.memoryGiB) GiB")

// Reading CSV files of generated rows: rows per second and peak memory. First, while the
// process holds little memory, so that the peak reflects the reader alone.
report.readers = try ReaderBenchmark.run(
    rowCounts: options.sections.contains("readers") ? options.sizes.filter { $0 >= 1_000_000 } : [],
    seed: options.seed)
for r in report.readers {
    log(
        String(
            format: "read %9d %@ rows: %.2f s, %.1f M rows/s, peak %.0f MB, %.1f bytes/point", r.rows, r.format,
            r.seconds, r.rowsPerSecond / 1e6, Double(r.peakMemoryBytes) / 1e6, r.bytesPerPoint))
}
// Records of 1 MB fields, plain or full of quotes: the readers are linear in their bytes.
if options.sections.contains("readers") {
    report.readerShapes = try ReaderShapeBenchmark.run(records: 16, repetitions: min(options.repetitions, 3))
}
for r in report.readerShapes {
    log(
        String(
            format: "read %2d records of %@ (%@, %.0f MB): %.3f s, %.0f MB/s", r.records, r.shape, r.format,
            Double(r.bytes) / 1e6, r.seconds, r.megabytesPerSecond))
}

let sizes = Array(Set(options.sizes + [options.points])).sorted()
var indexes: [Int: PointIndex] = [:]
var dataSets: [Int: SyntheticData] = [:]
for size in sizes {
    let data = SyntheticData(count: size, seed: options.seed)
    var times: [Double] = []
    var index: PointIndex?
    for _ in 0..<max(1, min(options.repetitions, 3)) {
        index = nil
        times.append(try Measure.seconds { index = try PointIndex(points: data.points) })
    }
    guard let built = index else { continue }
    // Peak memory from a fresh process: this one reuses memory freed before, which hides it.
    let peak = IndexPeak.measure(count: size, seed: options.seed) ?? 0
    let seconds = Measure.median(times)
    report.index.append(
        IndexMeasurement(
            points: size, seconds: seconds, pointsPerSecond: Double(size) / seconds,
            indexBytesPerPoint: Double(built.byteCount) / Double(size), peakBytesPerPoint: Double(peak) / Double(size)))
    log(
        String(
            format: "index %9d points: %.3f s, %.1f M points/s, peak %.1f bytes/point", size, seconds,
            Double(size) / seconds / 1e6, Double(peak) / Double(size)))
    indexes[size] = built
    if size == options.points || size == sizes.first || size == sizes.last { dataSets[size] = data }
}

guard let mainIndex = indexes[options.points], let mainData = dataSets[options.points] else { exit(1) }
if let folder = options.exportPath {
    try Export.write(mainData.points, to: folder)
}
let bench = TileBenchmark(data: mainData, index: mainIndex, repetitions: options.repetitions)

// Tiles, phase by phase, with the brute-force reference.
var chosen: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)] = []
for zoom in options.zooms {
    for scale in [1, 2] {
        for t in try bench.tiles(zoom: zoom, scale: scale) {
            chosen.append((zoom, scale, t.kind, t.x, t.y))
            guard options.sections.contains("tiles") else { continue }
            let m = try bench.measure(zoom: zoom, scale: scale, kind: t.kind, x: t.x, y: t.y, reference: true)
            report.tiles.append(m)
            log(
                String(
                    format:
                        "tile %@ %@ gather %7.3f convolve %7.3f colour %6.3f encode %6.3f ms, %7d B; reference %8.1f ms (%.0fx)",
                    m.tile.padding(toLength: 16, withPad: " ", startingAt: 0),
                    m.kind.padding(toLength: 6, withPad: " ", startingAt: 0), m.gatherMs, m.convolveMs, m.colourMs,
                    m.encodeMs, m.pngBytes, m.referenceMs ?? 0, m.speedupOverReference ?? 0))
        }
    }
}

// Every tile in every format: RGBA and palette PNG, lossless and lossy WebP, libpng's (BytesBenchmark.swift).
if options.sections.contains("bytes") {
    report.bytes = try BytesBenchmark.measure(
        bench: bench, tiles: chosen, repetitions: options.repetitions, imagesTo: options.tileImagesPath,
        colorMapSize: options.bytesColorMapSize)
    for b in report.bytes {
        log(
            String(
                format:
                    "bytes %@ %@ RGBA %7d B %6.3f ms, palette %7d B %6.3f ms (%.2fx bytes, %.2fx faster; colour %.3f/%.3f ms; %d colours, %d bit%@), "
                    + "WebP lossless %7d B %6.2f ms%@, q90 %6d B %6.2f ms; libpng %d/%d B; 1000-map %d colours %d B; difference %d (p99 %d)",
                b.tile.padding(toLength: 16, withPad: " ", startingAt: 0),
                b.kind.padding(toLength: 6, withPad: " ", startingAt: 0), b.rgbaBytes, b.rgbaEncodeMs, b.indexedBytes,
                b.indexedEncodeMs, b.bytesRatio, b.encodeSpeedup, b.rgbaColourMs, b.indexedColourMs, b.indexedColours,
                b.indexedBitDepth, b.indexedIsPalette && b.indexedEqualsRGBA ? "" : " NOT EXACT PALETTE",
                b.webpLosslessBytes, b.webpLosslessMs, b.webpLosslessExact ? "" : " NOT EXACT", b.webpLossyBytes,
                b.webpLossyMs, b.libpngRGBABytes, b.libpngIndexedBytes, b.libraryColours, b.libraryBytes,
                b.largestDifference, b.differenceP99))
    }
}

// The same tiles at every size.
func describe(_ values: [String: IntensityMeasurement]) -> String {
    values.sorted { Int($0.key) ?? 0 < Int($1.key) ?? 0 }.map {
        String(
            format: "%@: %.3f ms (gather %.3f, %d px)", $0.key, $0.value.milliseconds, $0.value.gatherMilliseconds,
            $0.value.occupiedPixels)
    }.joined(separator: ", ")
}
for t in chosen where t.scale == 2 && options.sections.contains("scaling") {
    var measured: [String: IntensityMeasurement] = [:]
    for size in sizes {
        guard let index = indexes[size] else { continue }
        measured[String(size)] = try IntensityMeasurement(
            index: index, zoom: t.zoom, x: t.x, y: t.y, repetitions: options.repetitions)
    }
    let smallest = measured[String(sizes.first ?? 0)]?.milliseconds ?? 1
    let largest = measured[String(sizes.last ?? 0)]?.milliseconds ?? 1
    let name = "\(t.zoom)/\(t.x)/\(t.y)@2x"
    report.scaling.append(
        ScalingMeasurement(
            tile: name, kind: t.kind, milliseconds: measured.mapValues(\.milliseconds),
            gatherMilliseconds: measured.mapValues(\.gatherMilliseconds),
            occupiedPixels: measured.mapValues(\.occupiedPixels), ratioLargestToSmallest: largest / max(1e-6, smallest))
    )
    log(
        String(
            format: "scaling %@ %@ %@ ratio %.2f", name.padding(toLength: 14, withPad: " ", startingAt: 0),
            t.kind.padding(toLength: 6, withPad: " ", startingAt: 0), describe(measured), largest / max(1e-6, smallest))
    )
}

// Time windows of an hour, a day, a month and the year over the points (FilterBenchmark.swift).
if options.sections.contains("filters") {
    report.filters = try FilterBenchmark.run(
        data: mainData, index: mainIndex, bench: bench, zooms: options.zooms, seed: options.seed,
        repetitions: options.repetitions, log: log)
}

// The mean of a value against the sum, on the same dense tiles (MeanBenchmark.swift).
if options.sections.contains("mean") {
    report.mean = try MeanBenchmark.run(
        data: mainData, index: mainIndex, tiles: chosen, seed: options.seed, repetitions: options.repetitions)
    for m in report.mean {
        log(
            String(
                format:
                    "mean %@: %.2f ms against the sum's %.2f (%.2f×); whole tile %.2f against %.2f (%.2f×); "
                    + "colour %.2f/%.2f, PNG %.2f/%.2f ms, %d/%d bytes",
                m.tile, m.meanMs, m.sumMs, m.ratio, m.meanTileMs, m.sumTileMs, m.tileRatio, m.meanColourMs,
                m.sumColourMs, m.meanEncodeMs, m.sumEncodeMs, m.meanPNGBytes, m.sumPNGBytes))
    }
}

// The same tiles over the smallest set and over it stacked to the largest size: equal
// occupied pixels, a hundred times the points.
if options.sections.contains("stacked"), let first = sizes.first, let last = sizes.last, last > first,
    let base = dataSets[first], let baseIndex = indexes[first]
{
    let stacked = try PointIndex(
        points: StackedData.points(stacking: base.points, copies: last / first, seed: options.seed))
    for t in chosen where t.scale == 2 {
        let name = "\(t.zoom)/\(t.x)/\(t.y)@2x"
        let measured = [
            String(first): try IntensityMeasurement(
                index: baseIndex, zoom: t.zoom, x: t.x, y: t.y, repetitions: options.repetitions),
            String(stacked.count): try IntensityMeasurement(
                index: stacked, zoom: t.zoom, x: t.x, y: t.y, repetitions: options.repetitions),
        ]
        let ratio =
            (measured[String(stacked.count)]?.milliseconds ?? 0) / max(1e-6, measured[String(first)]?.milliseconds ?? 1)
        report.stacked.append(
            StackedMeasurement(
                tile: name, kind: t.kind, basePoints: first, stackedPoints: stacked.count,
                milliseconds: measured.mapValues(\.milliseconds),
                gatherMilliseconds: measured.mapValues(\.gatherMilliseconds),
                occupiedPixels: measured.mapValues(\.occupiedPixels), ratio: ratio))
        log(
            String(
                format: "stacked %@ %@ %@ ratio %.2f", name.padding(toLength: 14, withPad: " ", startingAt: 0),
                t.kind.padding(toLength: 6, withPad: " ", startingAt: 0), describe(measured), ratio))
    }
}

// M(z) per zoom and size.
for size in sizes where options.sections.contains("normalization") {
    guard let index = indexes[size] else { continue }
    for zoom in options.zooms {
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        var value: Float = 0
        // Medians of up to 3: M(z) is not cached here, each run searches afresh. Wall and CPU
        // time (all threads'), the latter steadier on a loaded machine.
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<min(3, options.repetitions) {
            let before = Measure.processCPUSeconds()
            wall.append(Measure.seconds { value = index.maximumIntensity(space: space, kernel: kernel) } * 1000)
            cpu.append((Measure.processCPUSeconds() - before) * 1000)
        }
        let (ms, cpuMs) = (Measure.median(wall), Measure.median(cpu))
        report.normalization.append(
            NormalizationMeasurement(
                points: size, zoom: zoom, scale: 1, milliseconds: ms, value: Double(value), cpuMilliseconds: cpuMs))
        log(String(format: "M(z) %9d points zoom %2d: %9.1f ms, CPU %9.1f ms (M = %.9g)", size, zoom, ms, cpuMs, value))
    }
}

// A percentile's normalisation value per zoom, beside the maximum's (see PercentileBenchmark.swift).
for zoom in options.zooms where options.sections.contains("percentile") {
    let m = try PercentileMeasurement.measure(index: mainIndex, zoom: zoom, percentile: 99)
    report.percentile.append(m)
    log(
        String(
            format:
                "P99 %9d points zoom %2d: %9.1f ms (%.6g; ranked at zoom %d, %d px, %d tiles); maximum %9.1f ms (%.6g)",
            m.points, zoom, m.milliseconds, m.value, m.rankedZoom, m.pixels, m.tiles, m.maximumMilliseconds, m.maximum))
}

// Throughput: a full zoom level through the layer, on all cores and on one.
if options.sections.contains("throughput") {
    report.throughput.append(try Throughput.measure(index: mainIndex, zoom: options.throughputZoom))
}
if let t = report.throughput.last {
    log(
        String(
            format: "throughput zoom %d: %d tiles, %.1f tiles/s on %d threads, %.1f tiles/s on one", t.zoom, t.tiles,
            t.tilesPerSecond, t.threads, t.singleThreadTilesPerSecond))
}

// Tiles as the server draws them with its cache off (scripts/bench/uncached_bench.py compares them).
if options.sections.contains("uncached") {
    let m = try UncachedBenchmark.measure(
        bench: bench, tiles: options.uncachedTiles, zoom: options.uncachedZoom, scale: options.uncachedScale,
        limit: options.uncachedLimit, repetitions: options.repetitions, pauseMs: options.uncachedPauseMs)
    report.uncached = m
    for t in m.tiles {
        log(String(format: "uncached %@: CPU %.3f ms, wall %.3f ms, %d B", t.tile, t.cpuMs, t.wallMs, t.pngBytes))
    }
    log(
        String(
            format: "uncached zoom %d@%dx: %d tiles, %.1f tiles/s on %d threads", m.throughputZoom,
            m.throughputScale, m.throughputTiles.count, m.tilesPerSecond, m.threads))
}

// Encoder settings on the dense tiles at 512 px.
if options.sections.contains("encoders") {
    report.encoders = try EncoderBenchmark.measure(
        bench: bench, tiles: chosen.filter { $0.scale == 2 && $0.kind == "dense" }.map { ($0.zoom, $0.x, $0.y) },
        repetitions: options.repetitions)
}

// heatmap render: zooms 0-10 everywhere and 0-14 over one cluster, of each size of a million or more.
for size in sizes where size >= 1_000_000 && options.sections.contains("render") {
    guard let index = indexes[size], let data = dataSets[size] ?? dataSets[options.points] else { continue }
    report.render += try RenderBenchmark.run(index: index, data: data, log: log)
}

// The PostgreSQL source against memory, with a database to use.
if options.sections.contains("postgres") {
    if let url = options.postgresURL {
        var p = try PostgresBenchmark.run(
            url: url, bench: bench, tiles: chosen, normalizationZooms: options.postgresNormalizationZooms,
            repetitions: max(options.repetitions, 7), seed: options.seed, reuse: options.postgresReuse, log: log)
        if options.postgresServeRows > 0 {
            p.serve = try PostgresServeBenchmark.run(
                url: url, table: "heatmap_bench_serve", rows: options.postgresServeRows, seed: options.seed,
                tiles: chosen, log: log)
        }
        report.postgres = p
        log(
            String(
                format: "postgres import %d rows: %.2f s, %.0f rows/s", p.rows, p.importSeconds, p.importRowsPerSecond))
        for t in p.tiles {
            log(
                String(
                    format: "postgres tile %@ %@ %8.2f ms from SQL, %6.2f ms in memory (%.0fx), same: %@",
                    t.tile.padding(toLength: 16, withPad: " ", startingAt: 0),
                    t.kind.padding(toLength: 6, withPad: " ", startingAt: 0), t.databaseMilliseconds,
                    t.memoryMilliseconds, t.ratio, t.sameIntensities ? "yes" : "NO")
                    + (t.postgisMilliseconds.map {
                        String(
                            format: "; PostGIS %8.2f ms (%.2fx; min %.2f against %.2f ms: %.2fx; paired %.2fx)", $0,
                            t.postgisOverDatabase ?? 0, t.postgisMinimumMilliseconds ?? 0,
                            t.databaseMinimumMilliseconds ?? 0, t.postgisOverDatabaseMinimum ?? 0,
                            t.postgisOverDatabasePaired ?? 0)
                    } ?? ""))
            if let q = t.sql {
                log(
                    String(
                        format:
                            "postgres sql  %@ HeatmapKit %7.1f us, PostGIS %7.1f us (%.2fx; paired %.2fx), SELECT 1 %5.1f us, beyond it %@ (%d runs)",
                        t.tile.padding(toLength: 16, withPad: " ", startingAt: 0), q.heatmapKitMicroseconds,
                        q.postgisMicroseconds, q.postgisOverHeatmapKit, q.postgisOverHeatmapKitPaired,
                        q.roundTripMicroseconds,
                        q.postgisOverHeatmapKitBeyondRoundTrip.map { String(format: "%.2fx", $0) } ?? "-", q.runs)
                        + String(
                            format: "; making them %.1f / %.1f us", q.heatmapKitStatementMicroseconds ?? 0,
                            q.postgisStatementMicroseconds ?? 0))
            }
        }
        log("postgres PostGIS: \(p.postgis)")
        if p.postgisSameRowsEveryTile == false {
            let differing = p.tiles.filter { $0.postgisRows?.same == false }.map(\.tile).joined(separator: ", ")
            log("postgres: PostGIS's rows differ from HeatmapKit's on \(differing): no time for those")
        }
        if let s = p.serve {
            log(
                String(
                    format: "postgres serve %d rows: %.0f MB at start, %.0f MB steady, %.0f MB peak", s.rows,
                    Double(s.startResidentBytes) / 1e6, Double(s.steadyResidentBytes) / 1e6,
                    Double(s.peakResidentBytes) / 1e6))
        }
        for n in p.normalization {
            log(
                String(
                    format: "postgres M(%d): %.0f ms from SQL (M = %.6g), %.1f ms in memory (M = %.6g)", n.zoom,
                    n.databaseMilliseconds, n.databaseValue, n.memoryMilliseconds, n.memoryValue))
        }
    } else {
        log("postgres: skipped (no --postgres URL)")
    }
}

// Live points: an append of 1% against a rebuild, and the next tile (see LiveBenchmark.swift).
if options.sections.contains("live") {
    let dense = chosen.filter { $0.scale == 1 && $0.kind == "dense" }.map { ($0.zoom, $0.x, $0.y) }
    let l = try LiveBenchmark.run(data: mainData, tiles: dense, seed: options.seed, repetitions: options.repetitions)
    report.live = l
    log(
        String(
            format:
                "live: add %d to %d points %.2f ms, rebuild %.1f ms; remove them %.2f ms, from the main index %.1f ms; compaction %.1f ms; same tiles: %@",
            l.appended, l.points, l.appendMilliseconds, l.rebuildMilliseconds, l.removeAppendedMilliseconds,
            l.removeMainMilliseconds, l.compactionMilliseconds, l.sameTiles ? "yes" : "NO"))
    for (tile, ms) in l.nextTileMilliseconds.sorted(by: { $0.key < $1.key }) {
        log(
            String(
                format: "live: next tile %@ %.1f ms (rebuilt layer %.1f ms, cached %.3f ms)", tile, ms,
                l.rebuiltTileMilliseconds[tile] ?? 0, l.cachedTileMilliseconds[tile] ?? 0))
    }
}

// heatmap render --postgres against render of the same points in memory (PostgresRenderBenchmark.swift).
if options.sections.contains("postgres-render") {
    if let url = options.postgresURL {
        report.postgresRender = try PostgresRenderBenchmark.run(url: url, data: mainData, index: mainIndex, log: log)
    } else {
        log("postgres-render: skipped (no --postgres URL)")
    }
}

// M(z) of a large table, searched (PostgresMaximumBenchmark.swift).
if options.sections.contains("postgres-maximum") && options.postgresMaximumRows > 0 {
    if let url = options.postgresURL {
        report.postgresMaximum = try PostgresMaximumBenchmark.run(
            url: url, table: "heatmap_bench_serve", rows: options.postgresMaximumRows, seed: options.seed,
            zooms: options.postgresNormalizationZooms, log: log)
    } else {
        log("postgres-maximum: skipped (no --postgres URL)")
    }
}

// A --where condition as a function of the row against the text in the statement (PostgresWhereBenchmark.swift).
if options.sections.contains("postgres-where") {
    if let url = options.postgresURL {
        report.postgresWhere = try PostgresWhereBenchmark.run(
            url: url, rows: options.postgresWhereRows, seed: options.seed, log: log)
    } else {
        log("postgres-where: skipped (no --postgres URL)")
    }
}

// Filtered tiles and M(z) from a table against unfiltered (PostgresFilterBenchmark.swift).
if options.sections.contains("postgres-filters") {
    if let url = options.postgresURL {
        report.postgresFilters = try PostgresFilterBenchmark.run(
            url: url, rows: options.postgresFiltersRows, seed: options.seed, log: log)
    } else {
        log("postgres-filters: skipped (no --postgres URL)")
    }
}

// Live points through the server: POST then GET, against a reload (see LiveServeBenchmark.swift).
if options.sections.contains("live-serve") {
    let dense = chosen.filter { $0.scale == 1 && $0.kind == "dense" }.map { ($0.zoom, $0.x, $0.y) }
    report.liveServe = try LiveServeBenchmark.run(data: mainData, tiles: dense, seed: options.seed, log: log)
}

// A table sharded over several servers against one server.
if options.sections.contains("postgres-sharded") {
    if let url = options.postgresURL, !options.shardURLs.isEmpty {
        report.postgresSharded = try ShardedBenchmark.run(
            url: url, shards: options.shardURLs, bench: bench, tiles: chosen,
            normalizationZooms: options.postgresNormalizationZooms, repetitions: options.repetitions, log: log)
    } else {
        log("postgres-sharded: skipped (needs --postgres URL and --shard URL)")
    }
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
let json = try encoder.encode(report)
FileHandle.standardOutput.write(json + Data("\n".utf8))
if let path = options.jsonPath { try json.write(to: URL(fileURLWithPath: path)) }
// A peer that answered something else than HeatmapKit (PostGIS's rows) fails the run, after the report.
if report.postgres?.postgisSameRowsEveryTile == false { exit(1) }
