@_spi(Benchmark) import HeatmapCore
import HeatmapKit

/// One tile's render, phase by phase (medians, milliseconds).
struct TileMeasurement: Codable {
    var points: Int
    var zoom: Int
    var scale: Int
    var kind: String
    var tile: String
    var weightInReach: Double
    var gatherMs: Double
    var convolveMs: Double
    var colourMs: Double
    /// Colouring the same grid under the sqrt and log colour scales (threshold lookups).
    var colourSqrtMs: Double?
    var colourLogMs: Double?
    var encodeMs: Double
    var totalMs: Double
    var pngBytes: Int
    var normalization: Double
    var referenceMs: Double?
    var speedupOverReference: Double?
}

/// Picks and renders the tiles the benchmark measures.
struct TileBenchmark {
    let data: SyntheticData
    let index: PointIndex
    let repetitions: Int
    let radius = 20

    /// The densest tile (most weight) among those under a cluster centre, and a sparse one
    /// (least positive weight) among those under background points.
    func tiles(zoom: Int, scale: Int) throws -> [(kind: String, x: Int, y: Int)] {
        let space = try PixelSpace(zoom: zoom, scale: scale)
        func tile(_ c: Coordinate) -> (Int, Int) {
            let pixel = space.pixel(of: c)
            let (x, y) = (pixel.x / space.tileSize, pixel.y / space.tileSize)
            return (x, y)
        }
        func weight(_ t: (Int, Int)) -> Double {
            index.weight(in: PixelRect(tileX: t.0, y: t.1, in: space), space: space)
        }
        let centres = data.clusters.map { tile(Coordinate(latitude: $0.latitude, longitude: $0.longitude)) }
        let dense = centres.max { weight($0) < weight($1) } ?? (0, 0)
        let sparse = data.background.map(tile).filter { weight($0) > 0 }.min { weight($0) < weight($1) } ?? dense
        return [("dense", dense.0, dense.1), ("sparse", sparse.0, sparse.1)]
    }

    /// Renders a tile `repetitions` times and keeps the median of each phase; with
    /// `reference`, renders it once more the brute-force way and gives the ratio.
    func measure(zoom: Int, scale: Int, kind: String, x: Int, y: Int, reference: Bool) throws -> TileMeasurement {
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let kernel = GaussianKernel(radius: radius * scale)
        let rect = PixelRect(tileX: x, y: y, in: space)
        let maximum = Double(index.maximumIntensity(space: space, kernel: kernel))
        let colours = ColorMap(gradient: .default, opacity: 0.7)
        let sqrtColours = ColorMap(gradient: .default, opacity: 0.7, scale: .sqrt)
        let logColours = ColorMap(gradient: .default, opacity: 0.7, scale: .log)
        var sqrtColourings: [Double] = []
        var logColourings: [Double] = []
        let encoder = PNGEncoder()
        var gathers: [Double] = []
        var convolves: [Double] = []
        var colourings: [Double] = []
        var encodings: [Double] = []
        var bytes = 0
        for _ in 0..<repetitions {
            var timings = RenderTimings()
            let grid = index.intensity(in: rect, space: space, kernel: kernel, timings: &timings)
            gathers.append(timings.gather.milliseconds)
            convolves.append(timings.convolve.milliseconds)
            var image = RGBAImage(transparentWidth: 0, height: 0)
            colourings.append(Measure.seconds { image = colours.colorize(grid, maximum: maximum) } * 1000)
            sqrtColourings.append(Measure.seconds { _ = sqrtColours.colorize(grid, maximum: maximum) } * 1000)
            logColourings.append(Measure.seconds { _ = logColours.colorize(grid, maximum: maximum) } * 1000)
            encodings.append(try Measure.seconds { bytes = try encoder.encode(image).count } * 1000)
        }
        var m = TileMeasurement(
            points: index.count, zoom: zoom, scale: scale, kind: kind,
            tile: "\(zoom)/\(x)/\(y)\(scale > 1 ? "@\(scale)x" : "")",
            weightInReach: index.weight(in: rect.expanded(by: kernel.radius), space: space),
            gatherMs: Measure.median(gathers), convolveMs: Measure.median(convolves),
            colourMs: Measure.median(colourings), encodeMs: Measure.median(encodings), totalMs: 0, pngBytes: bytes,
            normalization: maximum)
        m.colourSqrtMs = Measure.median(sqrtColourings)
        m.colourLogMs = Measure.median(logColourings)
        m.totalMs = m.gatherMs + m.convolveMs + m.colourMs + m.encodeMs
        if reference {
            let ms =
                Measure.seconds {
                    _ = ReferenceRenderer.intensity(of: data.points, in: rect, space: space, radius: kernel.radius)
                } * 1000
            m.referenceMs = ms
            m.speedupOverReference = ms / max(1e-6, m.gatherMs + m.convolveMs)
        }
        return m
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
