import Foundation
import HeatmapCore

extension PointFileReport {
    /// Zoom levels worth viewing the data at, for a kernel radius in points: see
    /// ``SuggestedZooms/range(bounds:points:sample:radius:)``, from the file's bounds, count
    /// and seeded sample of up to 1000 points.
    package func suggestedZoomRange(radius: Int = 20) -> ClosedRange<Int> {
        SuggestedZooms.range(bounds: bounds, points: pointsRead, sample: sample, radius: radius)
    }
}

/// The zooms `heatmap info` suggests, from a data set's bounds, its number of points and a
/// sample of their positions: one definition for files and database tables.
package enum SuggestedZooms {
    /// Zoom levels worth viewing the data at, for a kernel radius in points.
    ///
    /// - The lowest is the highest zoom at which the bounds still fit in about one tile
    ///   (their larger side in Web Mercator at most a tile).
    /// - The highest is the lowest zoom at which the typical spacing between points reaches
    ///   the radius, so points start to stand apart; 22 when points coincide. The spacing is
    ///   the median nearest-neighbour distance within `sample` (positions as world fractions,
    ///   x east from the antimeridian, y south from the north), scaled by √(sample / points),
    ///   as spacing goes with the square root of density.
    public static func range(bounds: PointBounds?, points: Int, sample: [SIMD2<Double>], radius: Int = 20)
        -> ClosedRange<Int>
    {
        let maximumZoom = WebMercator.maximumZoom
        guard let bounds, points > 0 else { return 0...maximumZoom }
        let width = bounds.longitudeSpan / 360
        let north = Double(WebMercator.unitY(latitude: bounds.north)) / 4_294_967_296
        let south = Double(WebMercator.unitY(latitude: bounds.south)) / 4_294_967_296
        let extent = max(width, abs(south - north))
        let lowest =
            extent <= 0 ? maximumZoom : min(maximumZoom, max(0, Int((-Foundation.log2(extent)).rounded(.down))))
        let spacing = typicalSpacing(sample: sample, points: points)
        guard spacing > 0 else { return lowest...maximumZoom }
        let wanted = Foundation.log2(Double(radius) / (256 * spacing))
        let highest = min(maximumZoom, max(lowest, Int(wanted.rounded(.up))))
        return lowest...highest
    }

    /// The median distance from a sampled point to its nearest sampled neighbour, as a
    /// fraction of the world's width, scaled to the whole data set of `points`; 0 for fewer
    /// than 2 sampled points.
    static func typicalSpacing(sample: [SIMD2<Double>], points: Int) -> Double {
        guard sample.count >= 2 else { return 0 }
        var nearest: [Double] = []
        nearest.reserveCapacity(sample.count)
        for (i, point) in sample.enumerated() {
            var best = Double.infinity
            for (j, other) in sample.enumerated() where j != i {
                var dx = abs(point.x - other.x)
                dx = min(dx, 1 - dx)
                let dy = point.y - other.y
                best = min(best, dx * dx + dy * dy)
            }
            nearest.append(best)
        }
        nearest.sort()
        let median = nearest[nearest.count / 2].squareRoot()
        return median * (Double(sample.count) / Double(max(points, sample.count))).squareRoot()
    }

    /// The smallest longitude interval holding every point, from the longitudes' extremes in
    /// 3600 bins of 0.1° (bin `b` holds -180 + b/10 ..< -180 + (b+1)/10; `nil` for an empty
    /// bin): the largest empty gap between occupied bins, across the antimeridian too, is cut
    /// out; if every gap is narrower than a bin, -180...180. `nil` without points.
    public static func longitudeInterval(bins: [(minimum: Double, maximum: Double)?]) -> (west: Double, east: Double)? {
        let occupied = bins.indices.compactMap { i in bins[i].map { (i, $0) } }.map(\.1)
        guard let first = occupied.first, let last = occupied.last else { return nil }
        var best = (gap: first.minimum + 360 - last.maximum, west: first.minimum, east: last.maximum)
        for (a, b) in zip(occupied, occupied.dropFirst()) where b.minimum - a.maximum > best.gap {
            best = (b.minimum - a.maximum, b.minimum, a.maximum)
        }
        return best.gap < 0.1 ? (-180, 180) : (best.west, best.east)
    }
}
