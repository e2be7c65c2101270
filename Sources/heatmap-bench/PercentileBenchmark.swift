import HeatmapCore
import HeatmapKit

/// The cost of a percentile normalisation of a zoom (drawing its occupied tiles twice at most),
/// beside the exact maximum's, through a fresh layer each time (nothing cached).
struct PercentileMeasurement: Codable {
    var points: Int
    var zoom: Int
    var percentile: Double
    var milliseconds: Double
    var value: Double
    /// The zoom ranked (coarser than `zoom` beyond the pixel limit).
    var rankedZoom: Int
    var pixels: Int
    var tiles: Int
    var maximumMilliseconds: Double
    var maximum: Double

    static func measure(index: PointIndex, zoom: Int, percentile: Double) throws -> PercentileMeasurement {
        var found = Normalization(value: 0, kind: .fixed, zoom: nil)
        let ms =
            try Measure.seconds {
                found = try HeatmapTileLayer(index: index, settings: HeatmapSettings(maximumPercentile: percentile))
                    .normalizationDetails(zoom: zoom)
            } * 1000
        var maximum = 0.0
        let maximumMs =
            try Measure.seconds { maximum = try HeatmapTileLayer(index: index).normalization(zoom: zoom) } * 1000
        var ranked = (zoom: zoom, pixels: 0, tiles: 0)
        if case .percentile(let p) = found.kind { ranked = (p.zoom, p.pixels, p.tiles) }
        return PercentileMeasurement(
            points: index.count, zoom: zoom, percentile: percentile, milliseconds: ms, value: found.value,
            rankedZoom: ranked.zoom, pixels: ranked.pixels, tiles: ranked.tiles, maximumMilliseconds: maximumMs,
            maximum: maximum)
    }
}
