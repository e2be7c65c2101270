import HeatmapCore
import HeatmapKit

/// The mean against the sum on the same dense tiles (medians, milliseconds): intensities
/// alone (gather + convolve; the mean does both channels and the division), and whole tiles
/// through the layer (colour and PNG included, no cache).
struct MeanMeasurement: Codable {
    var tile: String
    var sumMs: Double
    var meanMs: Double
    var ratio: Double
    var sumTileMs: Double
    var meanTileMs: Double
    var tileRatio: Double
    /// Colouring (the mean: its positions in the range, then the colour map) and PNG encoding.
    var sumColourMs: Double
    var meanColourMs: Double
    var sumEncodeMs: Double
    var meanEncodeMs: Double
    var sumPNGBytes: Int
    var meanPNGBytes: Int
}

enum MeanBenchmark {
    /// Values for the benchmark's points: a seeded "price" in 0...1000 per point.
    static func values(count: Int, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed &+ 77)
        return (0..<count).map { _ in Double(random.next() >> 11) / 9_007_199_254_740_992 * 1000 }
    }

    static func run(
        data: SyntheticData, index: PointIndex, tiles: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)],
        seed: UInt64, repetitions: Int
    ) throws -> [MeanMeasurement] {
        let values = try ValueIndex(points: data.points, values: Self.values(count: data.points.count, seed: seed))
        let sumLayer = HeatmapTileLayer(index: index, cacheBytes: 0)
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        let meanLayer = HeatmapTileLayer(values: values, settings: settings, cacheBytes: 0)
        var out: [MeanMeasurement] = []
        for t in tiles where t.kind == "dense" {
            let space = try PixelSpace(zoom: t.zoom, scale: t.scale)
            let kernel = GaussianKernel(radius: 20 * t.scale)
            let rect = PixelRect(tileX: t.x, y: t.y, in: space)
            _ = try sumLayer.normalization(zoom: t.zoom, scale: t.scale)
            var sum: [Double] = []
            var mean: [Double] = []
            var sumTile: [Double] = []
            var meanTile: [Double] = []
            var colour: [[Double]] = [[], []]
            var encode: [[Double]] = [[], []]
            var bytes = [0, 0]
            let map = ColorMap(gradient: .default, opacity: 0.7)
            let maximum = try sumLayer.normalization(zoom: t.zoom, scale: t.scale)
            let range = values.lowest...values.highest
            for _ in 0..<max(1, repetitions) {
                sum.append(Measure.seconds { _ = index.intensity(in: rect, space: space, kernel: kernel) })
                mean.append(Measure.seconds { _ = values.mean(in: rect, space: space, kernel: kernel) })
                sumTile.append(
                    try Measure.seconds { _ = try sumLayer.tileFor(x: t.x, y: t.y, zoom: t.zoom, scale: t.scale) })
                meanTile.append(
                    try Measure.seconds { _ = try meanLayer.tileFor(x: t.x, y: t.y, zoom: t.zoom, scale: t.scale) })
                let grids = [
                    index.intensity(in: rect, space: space, kernel: kernel),
                    values.mean(in: rect, space: space, kernel: kernel).positions(in: range),
                ]
                for channel in 0..<2 {
                    var image: RGBAImage?
                    colour[channel].append(
                        Measure.seconds {
                            image = map.colorize(grids[channel], maximum: channel == 0 ? maximum : 1)
                        })
                    guard let image else { continue }
                    encode[channel].append(
                        try Measure.seconds { bytes[channel] = try PNGEncoder().encode(image).count })
                }
            }
            let suffix = t.scale == 1 ? "" : "@\(t.scale)x"
            let s = Measure.median(sum) * 1000
            let m = Measure.median(mean) * 1000
            let st = Measure.median(sumTile) * 1000
            let mt = Measure.median(meanTile) * 1000
            out.append(
                MeanMeasurement(
                    tile: "\(t.zoom)/\(t.x)/\(t.y)\(suffix)", sumMs: s, meanMs: m, ratio: m / max(1e-9, s),
                    sumTileMs: st,
                    meanTileMs: mt, tileRatio: mt / max(1e-9, st), sumColourMs: Measure.median(colour[0]) * 1000,
                    meanColourMs: Measure.median(colour[1]) * 1000, sumEncodeMs: Measure.median(encode[0]) * 1000,
                    meanEncodeMs: Measure.median(encode[1]) * 1000, sumPNGBytes: bytes[0], meanPNGBytes: bytes[1]))
        }
        return out
    }
}
