import Foundation
import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// A table sharded over several servers against one server, on the same rows and tiles
/// (`--only postgres-sharded --postgres URL --shard URL --shard URL …`; `bench/postgres_sharded.sh`
/// starts the clusters): `import` into one table on `--postgres`, `import --shard` into a
/// table partitioned from there over the shards, then each tile's gather + convolve and
/// M(z) from both (medians, milliseconds), and from memory.
struct ShardedMeasurement: Codable {
    var rows: Int
    var shards: Int
    var singleImportSeconds: Double
    var shardedImportSeconds: Double
    var tiles: [ShardedTileMeasurement]
    var normalization: [ShardedNormalizationMeasurement]
}

/// One tile from one server, from the shards and from memory.
struct ShardedTileMeasurement: Codable {
    var tile: String
    var kind: String
    var singleMilliseconds: Double
    var shardedMilliseconds: Double
    var memoryMilliseconds: Double
    /// Sharded over single.
    var ratio: Double
    var sameIntensities: Bool
}

/// M(z) from one server and from the shards.
struct ShardedNormalizationMeasurement: Codable {
    var zoom: Int
    var singleMilliseconds: Double
    var shardedMilliseconds: Double
    var same: Bool
}

enum ShardedBenchmark {
    static func run(
        url: String, shards: [String], bench: TileBenchmark,
        tiles: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)],
        normalizationZooms: [Int], repetitions: Int, log: (String) -> Void
    ) throws -> ShardedMeasurement {
        let connection = ConnectionString(url)
        let points = bench.data.points
        let single = try PostgresImport.run(
            points: points, into: "heatmap_bench_single", connection: connection, mode: .replace)
        log(String(format: "sharded: one server's import %.1f s", seconds(single.duration)))
        let sharded = try PostgresShardedImport.run(
            points: points, into: "heatmap_bench_sharded", coordinator: connection,
            shards: shards.map(ConnectionString.init), mode: .replace)
        log(String(format: "sharded: import over %d shards %.1f s", shards.count, seconds(sharded.duration)))
        let one = try PostgresSource(connection: connection, table: PostgresTable(name: "heatmap_bench_single"))
        let many = try PostgresSource(connection: connection, table: PostgresTable(name: "heatmap_bench_sharded"))
        var measured: [ShardedTileMeasurement] = []
        for t in tiles {
            let space = try PixelSpace(zoom: t.zoom, scale: t.scale)
            let kernel = GaussianKernel(radius: 20 * t.scale)
            let rect = PixelRect(tileX: t.x, y: t.y, in: space)
            var grids: [IntensityGrid?] = [nil, nil, nil]
            let a = Measure.median(
                try (0..<repetitions).map { _ in
                    try Measure.seconds { grids[0] = try one.intensity(in: rect, space: space, kernel: kernel) } * 1000
                })
            let b = Measure.median(
                try (0..<repetitions).map { _ in
                    try Measure.seconds { grids[1] = try many.intensity(in: rect, space: space, kernel: kernel) } * 1000
                })
            let m = Measure.median(
                (0..<repetitions).map { _ in
                    Measure.seconds { grids[2] = bench.index.intensity(in: rect, space: space, kernel: kernel) } * 1000
                })
            let same = equal(grids[0], grids[2]) && equal(grids[1], grids[2])
            let name = "\(t.zoom)/\(t.x)/\(t.y)\(t.scale == 1 ? "" : "@\(t.scale)x")"
            measured.append(
                ShardedTileMeasurement(
                    tile: name, kind: t.kind, singleMilliseconds: a, shardedMilliseconds: b, memoryMilliseconds: m,
                    ratio: b / max(a, 1e-9), sameIntensities: same))
            log(
                String(
                    format:
                        "sharded tile %@ %@ one server %8.2f ms, %d shards %8.2f ms (%.2fx), memory %6.2f ms, same: %@",
                    name.padding(toLength: 16, withPad: " ", startingAt: 0),
                    t.kind.padding(toLength: 6, withPad: " ", startingAt: 0), a, shards.count, b, b / max(a, 1e-9), m,
                    same ? "yes" : "NO"))
        }
        var normalization: [ShardedNormalizationMeasurement] = []
        for zoom in normalizationZooms {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let kernel = GaussianKernel(radius: 20)
            var values: [Float] = [0, 0]
            let a =
                try Measure.seconds {
                    values[0] = try one.searchedMaximum(space: space, kernel: kernel)
                } * 1000
            let b =
                try Measure.seconds {
                    values[1] = try many.searchedMaximum(space: space, kernel: kernel)
                } * 1000
            let same = abs(values[0] - values[1]) <= 1e-6 * values[0]
            normalization.append(
                ShardedNormalizationMeasurement(zoom: zoom, singleMilliseconds: a, shardedMilliseconds: b, same: same))
            log(
                String(
                    format: "sharded M(%d): one server %.0f ms, shards %.0f ms, same: %@", zoom, a, b,
                    same ? "yes" : "NO"))
        }
        return ShardedMeasurement(
            rows: points.count, shards: shards.count, singleImportSeconds: seconds(single.duration),
            shardedImportSeconds: seconds(sharded.duration), tiles: measured, normalization: normalization)
    }

    /// Whether two tiles' intensities agree within 1e-6 relative.
    static func equal(_ a: IntensityGrid?, _ b: IntensityGrid?) -> Bool {
        guard let a, let b, a.values.count == b.values.count else { return a == nil && b == nil }
        for (x, y) in zip(a.values, b.values) where abs(x - y) > 1e-6 * max(x, y) { return false }
        return true
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
