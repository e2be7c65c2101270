import Foundation
import HeatmapCore

extension PointFileReport {
    /// Zoom levels worth viewing the data at, for a kernel radius in points.
    ///
    /// - The lowest is the highest zoom at which the bounds still fit in about one tile
    ///   (their larger side in Web Mercator at most a tile).
    /// - The highest is the lowest zoom at which the typical spacing between points reaches
    ///   the radius, so points start to stand apart; 22 when points coincide. The spacing is
    ///   the median nearest-neighbour distance within ``sample``, scaled by
    ///   √(sample / points), as spacing goes with the square root of density.
    public func suggestedZoomRange(radius: Int = 20) -> ClosedRange<Int> {
        let maximumZoom = WebMercator.maximumZoom
        guard let bounds, pointsRead > 0 else { return 0...maximumZoom }
        let width = bounds.longitudeSpan / 360
        let north = Double(WebMercator.unitY(latitude: bounds.north)) / 4_294_967_296
        let south = Double(WebMercator.unitY(latitude: bounds.south)) / 4_294_967_296
        let extent = max(width, abs(south - north))
        let lowest =
            extent <= 0 ? maximumZoom : min(maximumZoom, max(0, Int((-Foundation.log2(extent)).rounded(.down))))
        let spacing = typicalSpacing()
        guard spacing > 0 else { return lowest...maximumZoom }
        let wanted = Foundation.log2(Double(radius) / (256 * spacing))
        let highest = min(maximumZoom, max(lowest, Int(wanted.rounded(.up))))
        return lowest...highest
    }

    /// The median distance from a sampled point to its nearest sampled neighbour, as a
    /// fraction of the world's width, scaled to the whole data set; 0 for fewer than 2 points.
    func typicalSpacing() -> Double {
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
        return median * (Double(sample.count) / Double(max(pointsRead, sample.count))).squareRoot()
    }
}
