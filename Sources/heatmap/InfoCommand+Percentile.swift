import HeatmapCore
import HeatmapKit

extension InfoCommand {
    /// A zoom's percentile as `info` reports it.
    struct PercentileValue: Codable {
        var zoom: Int
        var percentile: Double
        var value: Double
        /// The zoom whose pixels were ranked: `zoom`, or a coarser one beyond the pixel limit.
        var rankedZoom: Int
        var pixels: Int
        var tiles: Int
    }

    /// With `--max-percentile`, each `--zoom`'s percentile; `nil` without.
    func percentiles(_ index: PointIndex) throws(CommandError) -> [PercentileValue]? {
        guard let percentile else { return nil }
        var ranked = settings
        ranked.maximumPercentile = percentile
        let layer = HeatmapTileLayer(index: index, settings: ranked, cacheBytes: 0)
        var values: [PercentileValue] = []
        for zoom in zooms {
            do {
                let found = try layer.normalizationDetails(zoom: zoom, scale: scale)
                guard case .percentile(let p) = found.kind else { continue }
                values.append(
                    PercentileValue(
                        zoom: zoom, percentile: percentile, value: found.value, rankedZoom: p.zoom, pixels: p.pixels,
                        tiles: p.tiles))
            } catch {
                throw CommandError(error.description)
            }
        }
        return values
    }
}
