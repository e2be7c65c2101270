import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTiles

/// `heatmap render`'s work through the library: a zoom range of the generated data (or of one
/// cluster's box) walked, rendered and written, on one thread and on every core.
struct RenderMeasurement: Codable {
    var points: Int
    var zooms: String
    /// W,S,E,N of `--bounds`, empty for the whole data.
    var bounds: String
    var format: String
    var threads: Int
    /// Tiles the walk visits (those whose padded area holds weight), and the time to count them.
    var visited: Int
    var countSeconds: Double
    var written: Int
    var empty: Int
    var bytes: Int
    var seconds: Double
    var tilesPerSecond: Double
}

enum RenderBenchmark {
    /// The cases: zooms 0-10 of everything, and 0-14 over the box of the first cluster of spread 0.1°.
    static func run(index: PointIndex, data: SyntheticData, log: (String) -> Void) throws -> [RenderMeasurement] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let cluster = data.clusters.first { $0.spread == 0.1 } ?? data.clusters[0]
        let box = PointBounds(
            south: cluster.latitude - 0.5, west: cluster.longitude - 0.5, north: cluster.latitude + 0.5,
            east: cluster.longitude + 0.5)
        let cases: [(ClosedRange<Int>, PointBounds?)] = [(0...10, nil), (0...14, box)]
        var out: [RenderMeasurement] = []
        for (zooms, bounds) in cases {
            for threads in Array(Set([1, cores])).sorted() {
                let formats =
                    threads == cores && bounds == nil && index.count <= 1_000_000
                    ? ["mbtiles", "pmtiles", "folder"] : ["mbtiles"]
                for format in formats {
                    let m = try measure(index: index, zooms: zooms, bounds: bounds, format: format, threads: threads)
                    out.append(m)
                    log(
                        String(
                            format:
                                "render %9d points zooms %@ %@ %@ on %d threads: %d tiles (%d visited, counted in %.2f s), %.1f MB in %.2f s, %.0f tiles/s",
                            m.points, m.zooms, m.bounds.isEmpty ? "everywhere" : "box " + m.bounds, m.format,
                            m.threads, m.written, m.visited, m.countSeconds, Double(m.bytes) / 1e6, m.seconds,
                            m.tilesPerSecond))
                }
            }
        }
        return out
    }

    static func measure(
        index: PointIndex, zooms: ClosedRange<Int>, bounds: PointBounds?, format: String, threads: Int
    ) throws -> RenderMeasurement {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-bench-render-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(format == "folder" ? "tiles" : "heat.\(format)").path
        let area = bounds.map(TileArea.init)
        let walk = try PyramidWalk(index: index, zooms: zooms, scale: 1, radius: 20, area: area)
        var visited = 0
        let countSeconds = Measure.seconds { visited = walk.count() }
        let metadata = TileMetadata(
            name: "bench", bounds: bounds ?? PointBounds(south: 25, west: -125, north: 50, east: -70),
            center: TileCenter(longitude: -97, latitude: 37, zoom: 4), minZoom: zooms.lowerBound,
            maxZoom: zooms.upperBound)
        let sink: any TileSink =
            switch format {
            case "pmtiles": try PMTilesWriter(path: path, metadata: metadata, mode: .create)
            case "folder": try TileFolderWriter(path: path, metadata: metadata, mode: .create)
            default: try MBTilesWriter(path: path, metadata: metadata, mode: .create)
            }
        // A fresh layer, so that M(z) of every zoom is computed inside the measured time, as a render does.
        let layer = HeatmapTileLayer(index: index, cacheBytes: 0)
        let renderer = PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: threads)
        var summary: RenderSummary?
        let seconds = try Measure.seconds { summary = try renderer.render(into: sink, progress: RenderProgress()) }
        let written = summary?.written ?? 0
        let b = bounds.map { "\($0.west),\($0.south),\($0.east),\($0.north)" } ?? ""
        return RenderMeasurement(
            points: index.count, zooms: "\(zooms.lowerBound)-\(zooms.upperBound)", bounds: b, format: format,
            threads: threads, visited: visited, countSeconds: countSeconds, written: written,
            empty: summary?.empty ?? 0, bytes: summary?.bytes ?? 0, seconds: seconds,
            tilesPerSecond: Double(written + (summary?.empty ?? 0)) / max(1e-9, seconds))
    }
}
