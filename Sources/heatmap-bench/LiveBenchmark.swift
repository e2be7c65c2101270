import Foundation
import HeatmapCore
import HeatmapKit

/// Live points (`--only live`): an append of 1% of the data to a running layer against a full
/// rebuild, the time until the next tile (a dense one per zoom, its M(z) computed again)
/// reflects it, and removals.
struct LiveMeasurement: Codable {
    var points: Int
    var appended: Int
    /// `layer.add(_:)` of the appended points (projection, a sort of them, the delta's merge).
    var appendMilliseconds: Double
    /// A new layer's index over all the points: `PointIndex(points:)` of every point.
    var rebuildMilliseconds: Double
    /// After the append, the first tile of each zoom (M(z) computed again over both indexes).
    var nextTileMilliseconds: [String: Double]
    /// The same tiles from the rebuilt layer (M(z) by the index's own search).
    var rebuiltTileMilliseconds: [String: Double]
    /// The same tiles asked again once drawn: from the layer's cache.
    var cachedTileMilliseconds: [String: Double]
    /// `layer.remove(_:)` of the appended points again (from the delta).
    var removeAppendedMilliseconds: Double
    /// `layer.remove(_:)` of as many points of the main index (one pass over its arrays).
    var removeMainMilliseconds: Double
    /// Merging a delta at the compaction threshold into the main index.
    var compactionMilliseconds: Double
    /// Whether the live layer's tiles equal the rebuilt layer's, byte for byte.
    var sameTiles: Bool
}

enum LiveBenchmark {
    static func run(data: SyntheticData, tiles: [(zoom: Int, x: Int, y: Int)], seed: UInt64, repetitions: Int)
        throws -> LiveMeasurement
    {
        let points = data.points
        let added = SyntheticData(count: max(1, points.count / 100), seed: seed &+ 1).points
        let runs = max(1, min(repetitions, 3))
        var appendMs: [Double] = []
        var rebuildMs: [Double] = []
        var next: [String: [Double]] = [:]
        var rebuilt: [String: [Double]] = [:]
        var cached: [String: [Double]] = [:]
        var removeAppended: [Double] = []
        var removeMain: [Double] = []
        var same = true
        for _ in 0..<runs {
            let layer = HeatmapTileLayer(weightedData: points)
            try layer.prepare()
            for t in tiles { _ = try layer.tileFor(x: t.x, y: t.y, zoom: t.zoom) }
            appendMs.append(try Measure.seconds { try layer.add(added) } * 1000)
            var fresh: HeatmapTileLayer?
            rebuildMs.append(
                try Measure.seconds {
                    let layer = HeatmapTileLayer(weightedData: points + added)
                    try layer.prepare()
                    fresh = layer
                } * 1000)
            for t in tiles {
                let name = "\(t.zoom)/\(t.x)/\(t.y)"
                var tile: TileResult = .noTile
                next[name, default: []].append(
                    try Measure.seconds { tile = try layer.tileFor(x: t.x, y: t.y, zoom: t.zoom) } * 1000)
                var other: TileResult = .noTile
                rebuilt[name, default: []].append(
                    try Measure.seconds { other = try fresh?.tileFor(x: t.x, y: t.y, zoom: t.zoom) ?? .noTile } * 1000)
                same = same && tile == other
                cached[name, default: []].append(
                    try Measure.seconds { _ = try layer.tileFor(x: t.x, y: t.y, zoom: t.zoom) } * 1000)
            }
            removeAppended.append(try Measure.seconds { try layer.remove(added) } * 1000)
            let main = Array(points.prefix(added.count))
            removeMain.append(try Measure.seconds { try layer.remove(main) } * 1000)
        }
        let base = try PointIndex(points: points)
        let delta = try PointIndex(points: SyntheticData(count: max(65_536, points.count / 16), seed: seed &+ 2).points)
        let compaction = Measure.median((0..<runs).map { _ in Measure.seconds { _ = base.merging(delta) } * 1000 })
        return LiveMeasurement(
            points: points.count, appended: added.count, appendMilliseconds: Measure.median(appendMs),
            rebuildMilliseconds: Measure.median(rebuildMs), nextTileMilliseconds: next.mapValues(Measure.median),
            rebuiltTileMilliseconds: rebuilt.mapValues(Measure.median),
            cachedTileMilliseconds: cached.mapValues(Measure.median),
            removeAppendedMilliseconds: Measure.median(removeAppended),
            removeMainMilliseconds: Measure.median(removeMain), compactionMilliseconds: compaction, sameTiles: same)
    }
}
