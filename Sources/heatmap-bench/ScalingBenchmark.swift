import Foundation
@_spi(Benchmark) import HeatmapCore
import HeatmapKit

/// One tile's gather + convolve at 512 px: median time, median gather time, occupied pixels.
struct IntensityMeasurement {
    var milliseconds: Double
    var gatherMilliseconds: Double
    var occupiedPixels: Int

    /// Renders the intensity of tile `zoom/x/y@2x` over `index` `repetitions` times (radius 20
    /// points, so 40 pixels) and keeps the medians.
    init(index: PointIndex, zoom: Int, x: Int, y: Int, repetitions: Int) throws {
        let space = try PixelSpace(zoom: zoom, scale: 2)
        let kernel = GaussianKernel(radius: 20 * space.scale)
        let rect = PixelRect(tileX: x, y: y, in: space)
        var times: [Double] = []
        var gathers: [Double] = []
        var occupied = 0
        for _ in 0..<max(1, repetitions) {
            var timings = RenderTimings()
            times.append(
                Measure.seconds { _ = index.intensity(in: rect, space: space, kernel: kernel, timings: &timings) }
                    * 1000)
            gathers.append(timings.gather.milliseconds)
            occupied = timings.occupiedPixels
        }
        milliseconds = Measure.median(times)
        gatherMilliseconds = Measure.median(gathers)
        occupiedPixels = occupied
    }
}

/// The same tile over a base data set and over that set stacked: every base point made into
/// `copies` points at distinct random positions inside its own pixel of zoom 16 at 512 px
/// (about 1.2 m at the equator). Every tile up to zoom 16 at 512 px then has the same
/// occupied pixels over both sets, and only the number of points differs.
struct StackedMeasurement: Codable {
    var tile: String
    var kind: String
    var basePoints: Int
    var stackedPoints: Int
    /// Gather + convolve, median, over the base set and over the stacked set.
    var milliseconds: [String: Double]
    /// Of `milliseconds`, the gather.
    var gatherMilliseconds: [String: Double]
    /// Occupied pixels of the padded tile over each set (equal by construction).
    var occupiedPixels: [String: Int]
    /// Stacked time over base time.
    var ratio: Double
}

enum StackedData {
    /// The pixel level (2^level pixels across the world) inside whose pixels copies stay:
    /// zoom 16 at 512 px.
    static let pixelLevel = 25

    /// `copies` points for each point of `base`, each at a random position in the middle
    /// three quarters of the base point's pixel at ``pixelLevel``, with a random weight in
    /// 0.5...2. A copy whose position would not round-trip into that pixel takes the base
    /// point's position.
    static func points(stacking base: [WeightedLatLng], copies: Int, seed: UInt64) -> [WeightedLatLng] {
        var rng = SplitMix64(seed: seed ^ 0x5eed_57ac)
        let shift = 32 - pixelLevel
        let cell = 1 << shift
        let world = Double(WebMercator.worldUnits)
        var points: [WeightedLatLng] = []
        points.reserveCapacity(base.count * copies)
        for point in base {
            let x = Int(WebMercator.unitX(longitude: point.coordinate.longitude)) & ~(cell - 1)
            let y = Int(WebMercator.unitY(latitude: point.coordinate.latitude)) & ~(cell - 1)
            for _ in 0..<copies {
                let dx = Int.random(in: (cell / 8)..<(cell - cell / 8), using: &rng)
                let dy = Int.random(in: (cell / 8)..<(cell - cell / 8), using: &rng)
                var c = Coordinate(
                    latitude: WebMercator.latitude(worldFraction: (Double(y + dy) + 0.5) / world),
                    longitude: WebMercator.longitude(worldFraction: (Double(x + dx) + 0.5) / world))
                if Int(WebMercator.unitX(longitude: c.longitude)) & ~(cell - 1) != x
                    || Int(WebMercator.unitY(latitude: c.latitude)) & ~(cell - 1) != y
                {
                    c = point.coordinate
                }
                points.append(WeightedLatLng(coordinate: c, intensity: Double.random(in: 0.5...2, using: &rng)))
            }
        }
        return points
    }
}
