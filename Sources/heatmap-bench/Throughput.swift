import Dispatch
import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization

/// Tiles per second for a whole zoom level, through HeatmapTileLayer without its cache.
enum Throughput {
    static func measure(index: PointIndex, zoom: Int) throws -> ThroughputMeasurement {
        let layer = HeatmapTileLayer(index: index, cacheBytes: 0)
        let space = try PixelSpace(zoom: zoom, scale: 1)
        // The tiles with data within reach.
        var found: [(Int, Int)] = []
        for y in 0..<space.tilesAcross {
            for x in 0..<space.tilesAcross
            where index.weight(in: PixelRect(tileX: x, y: y, in: space).expanded(by: 20), space: space) > 0 {
                found.append((x, y))
            }
        }
        let tiles = found
        _ = try layer.normalization(zoom: zoom)  // M(z) once, outside the timing
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let failures = Atomic<Int>(0)
        let all = Measure.seconds {
            DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
                if (try? layer.tileFor(x: tiles[i].0, y: tiles[i].1, zoom: zoom)) == nil {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        let one = try Measure.seconds {
            for (x, y) in tiles { _ = try layer.tileFor(x: x, y: y, zoom: zoom) }
        }
        return ThroughputMeasurement(
            zoom: zoom, tiles: tiles.count, threads: threads, seconds: all,
            tilesPerSecond: Double(tiles.count) / all, singleThreadTilesPerSecond: Double(tiles.count) / one)
    }
}
