import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapPostgres
import HeatmapTiles

/// `heatmap render --postgres` against `heatmap render` of the same points in memory
/// (`--only postgres-render --postgres URL`): the same zooms into MBTiles on every core.
struct PostgresRenderMeasurement: Codable {
    var rows: Int
    var zooms: String
    /// W,S,E,N of the area, empty for the whole data.
    var bounds: String
    var threads: Int
    /// Tiles written from each source (the walk's tiles that drew something).
    var tiles: Int
    /// The whole render: the walk counted, M(z) of every zoom, every tile written.
    var databaseSeconds: Double
    var databaseTilesPerSecond: Double
    /// Of `databaseSeconds`, M(z) of every zoom (computed first, once a zoom).
    var databaseNormalizationSeconds: Double
    var memorySeconds: Double
    var memoryTilesPerSecond: Double
    var memoryNormalizationSeconds: Double
    /// `databaseSeconds / memorySeconds`.
    var ratio: Double
    /// Whether both archives hold the same tiles, byte for byte.
    var sameTiles: Bool
}

enum PostgresRenderBenchmark {
    /// Imports the points into `heatmap_bench_render` (replacing it), then renders zooms 0-7
    /// everywhere and 0-12 over one cluster's 1° box from the table and from memory, each with
    /// a fresh layer so that M(z) of every zoom is inside the measured time, as a render does.
    static func run(url: String, data: SyntheticData, index: PointIndex, log: (String) -> Void) throws
        -> [PostgresRenderMeasurement]
    {
        let connection = ConnectionString(url)
        _ = try PostgresImport.run(
            points: data.points, into: "heatmap_bench_render", connection: connection, mode: .replace)
        let table = try PostgresSource(connection: connection, table: PostgresTable(name: "heatmap_bench_render"))
        let source = table.pinned(toChangeCount: try table.changeCount())
        let cluster = data.clusters.first { $0.spread == 0.1 } ?? data.clusters[0]
        let box = PointBounds(
            south: cluster.latitude - 0.5, west: cluster.longitude - 0.5, north: cluster.latitude + 0.5,
            east: cluster.longitude + 0.5)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        var out: [PostgresRenderMeasurement] = []
        for (zooms, bounds) in [(0...7, nil), (0...12, box)] as [(ClosedRange<Int>, PointBounds?)] {
            let area = bounds.map(TileArea.init)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "heatmap-bench-pgrender-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let fromTable = folder.appendingPathComponent("table.mbtiles").path
            let fromMemory = folder.appendingPathComponent("memory.mbtiles").path
            let memoryWalk = try PyramidWalk(index: index, zooms: zooms, scale: 1, radius: 20, area: area)
            let (memorySeconds, memoryNormalization, written) = try render(
                HeatmapTileLayer(index: index, cacheBytes: 0), walk: memoryWalk, into: fromMemory, threads: threads)
            let tableWalk = try PyramidWalk(source: source, zooms: zooms, scale: 1, area: area) { _ in 20 }
            let (databaseSeconds, databaseNormalization, tableWritten) = try render(
                HeatmapTileLayer(source: source, cacheBytes: 0), walk: tableWalk, into: fromTable, threads: threads)
            let a = try MBTilesReader(path: fromMemory)
            let b = try MBTilesReader(path: fromTable)
            var same = written == tableWritten
            var walk = memoryWalk
            while same, let tile = walk.next() {
                same =
                    try a.tileData(z: tile.zoom, x: tile.x, y: tile.y) == b.tileData(z: tile.zoom, x: tile.x, y: tile.y)
            }
            let m = PostgresRenderMeasurement(
                rows: data.points.count, zooms: "\(zooms.lowerBound)-\(zooms.upperBound)",
                bounds: bounds.map { "\($0.west),\($0.south),\($0.east),\($0.north)" } ?? "", threads: threads,
                tiles: written, databaseSeconds: databaseSeconds,
                databaseTilesPerSecond: Double(tableWritten) / max(1e-9, databaseSeconds),
                databaseNormalizationSeconds: databaseNormalization, memorySeconds: memorySeconds,
                memoryTilesPerSecond: Double(written) / max(1e-9, memorySeconds),
                memoryNormalizationSeconds: memoryNormalization,
                ratio: databaseSeconds / max(1e-9, memorySeconds), sameTiles: same)
            out.append(m)
            log(
                String(
                    format:
                        "postgres render %d rows zooms %@ %@ on %d threads: %d tiles, %.2f s from SQL (%.0f tiles/s; M(z) %.2f s), %.2f s in memory (%.0f tiles/s; M(z) %.2f s), %.1fx; same tiles: %@",
                    m.rows, m.zooms, m.bounds.isEmpty ? "everywhere" : "box " + m.bounds, m.threads, m.tiles,
                    m.databaseSeconds, m.databaseTilesPerSecond, m.databaseNormalizationSeconds, m.memorySeconds,
                    m.memoryTilesPerSecond, m.memoryNormalizationSeconds, m.ratio,
                    m.sameTiles ? "yes" : "NO"))
        }
        return out
    }

    /// Renders the walk through `layer` into a new MBTiles file: the seconds (counting the
    /// walk, M(z) and every tile, as `heatmap render` does), those of M(z), and the tiles written.
    static func render(_ layer: HeatmapTileLayer, walk: PyramidWalk, into path: String, threads: Int) throws
        -> (Double, Double, Int)
    {
        var written = 0
        var normalization = 0.0
        let seconds = try Measure.seconds {
            normalization = try Measure.seconds {
                for zoom in walk.zooms { _ = try layer.normalization(zoom: zoom, scale: 1) }
            }
            let progress = RenderProgress()
            progress.total.store(try walk.counted(), ordering: .relaxed)
            let metadata = TileMetadata(
                name: "bench", bounds: PointBounds(south: 25, west: -125, north: 50, east: -70),
                center: TileCenter(longitude: -97, latitude: 37, zoom: 4), minZoom: walk.zooms.lowerBound,
                maxZoom: walk.zooms.upperBound)
            let sink = try MBTilesWriter(path: path, metadata: metadata, mode: .create)
            let renderer = PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: threads)
            written = try renderer.render(into: sink, progress: progress).written
        }
        return (seconds, normalization, written)
    }
}
