import Foundation
import HeatmapKit

/// A zoom's legend as an archive records it (MBTiles' `json` row and PMTiles' metadata under
/// `heatmap_legends`, a folder's `metadata.json` under `legends`): M(z), how it was chosen, the
/// colour scale and the stops (see ``Legend``).
package struct TileLegend: Sendable, Hashable, Codable {
    /// One stop: the least intensity that takes the colour, and the colour as `#rrggbbaa`.
    package struct Stop: Sendable, Hashable, Codable {
        /// τₑ · M(z).
        package var value: Double
        /// The colour map entry's colour, alpha times the opacity.
        package var color: String
    }

    /// M(z).
    package var maximum: Double
    /// `maximum`, `fixed` or `percentile`.
    package var normalization: String
    /// The zoom whose pixels gave M(z) (a percentile may come from a coarser one); `nil` when fixed.
    package var normalizationZoom: Int?
    /// P, for a percentile.
    package var percentile: Double?
    /// `linear`, `sqrt` or `log`.
    package var colorScale: String
    /// The stops, lowest first.
    package var stops: [Stop]

    /// The record of a library legend.
    package init(_ legend: Legend) {
        maximum = legend.maximum
        switch legend.normalization.kind {
        case .fixed:
            normalization = "fixed"
        case .maximum(let zoom):
            normalization = "maximum"
            normalizationZoom = zoom
        case .percentile(let found):
            normalization = "percentile"
            normalizationZoom = found.zoom
            percentile = found.percentile
        }
        colorScale = legend.colorScale.rawValue
        stops = legend.stops.map { stop in
            let c = stop.color
            let hex = [c.red, c.green, c.blue, c.alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            return Stop(value: stop.value, color: "#" + hex.joined())
        }
    }
}

extension TileMetadata {
    /// ``legends`` as one line of JSON with sorted keys, `nil` when there are none.
    package var legendsJSON: String? {
        guard let legends, !legends.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(legends)).flatMap { String(data: $0, encoding: .utf8) }
    }
}

extension TileLegend {
    /// The legends of a JSON object (`heatmap_legends` as parsed by `JSONSerialization`), `nil`
    /// when absent or not legends.
    static func decode(_ object: Any?) -> [String: TileLegend]? {
        guard let object, JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object)
        else { return nil }
        return try? JSONDecoder().decode([String: TileLegend].self, from: data)
    }

    /// The legends of MBTiles' `json` row (`{"heatmap_legends": …}`), `nil` when absent.
    static func decode(mbtilesJSON text: String?) -> [String: TileLegend]? {
        guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return nil }
        return decode(object["heatmap_legends"])
    }
}
