import HeatmapKit
import HeatmapTiles

extension StoredLayer: TileJSONLayer, LegendLayer {
    /// TileJSON from the archive's metadata for `/{layer}.json` (its own scale, whatever it is)
    /// and `/{layer}@2x.json`, `/{layer}@3x.json` (only when the archive was rendered at that
    /// scale: its tiles exist at one scale only); `scales` lists the one TileJSON of the scale
    /// its tiles were rendered at. Settings do not apply: its tiles are fixed.
    ///
    /// - Throws: ``TileService/LookupFailure`` (404) for another scale, naming the one it has.
    func tileJSON(base: String, settings: SettingOverrides, scale: Int, options: ServerOptions)
        throws(TileService.LookupFailure) -> TileJSON
    {
        let stored = storedScale
        guard scale == 1 || scale == stored else {
            let own = stored == 1 ? "/\(name).json" : "/\(name)@\(stored)x.json"
            throw TileService.LookupFailure(
                status: .notFound,
                message: "layer \(name) is pre-rendered at scale \(stored) only (\(256 * stored) px tiles): "
                    + "there are no @\(scale)x tiles; use \(own)")
        }
        let meta = reader.metadata
        let b = meta.bounds.withoutWrapping
        let suffix = stored == 1 ? "" : "@\(stored)x"
        let recorded = meta.options
        return TileJSON(
            tilejson: "3.0.0", name: name, description: meta.description,
            attribution: meta.attribution.isEmpty ? options.attribution : meta.attribution, scheme: "xyz",
            tiles: ["\(base)/\(name)/{z}/{x}/{y}\(suffix).png"], tileSize: 256 * stored,
            minzoom: meta.minZoom, maxzoom: meta.maxZoom,
            bounds: [b.west, b.south, b.east, b.north],
            center: [meta.center.longitude, meta.center.latitude, Double(meta.center.zoom)],
            points: Int(recorded["points"] ?? "") ?? 0, radius: Int(recorded["radius"] ?? "") ?? 20,
            opacity: Double(recorded["opacity"] ?? "") ?? 0.7, scales: ["\(base)/\(name)\(suffix).json"])
    }

    /// "stored".
    var legendKind: String { "stored" }

    /// The legend `heatmap render` wrote into the archive's metadata for the query's zoom (its
    /// tiles are fixed, so it takes no settings).
    ///
    /// - Throws: ``TileService/LookupFailure`` (404) naming why there is none.
    func legend(_ query: LegendQuery, base: String) throws -> LayerLegend {
        guard let legends = reader.metadata.legends, !legends.isEmpty else {
            throw TileService.LookupFailure(
                status: .notFound,
                message: "layer \(name): the archive has no legends (rendered before render wrote them)")
        }
        guard let legend = legends[String(query.zoom)] else {
            let zooms = legends.keys.compactMap { Int($0) }.sorted()
            let range = zooms.first.map { "\($0)...\(zooms.last ?? $0)" } ?? "none"
            throw TileService.LookupFailure(
                status: .notFound, message: "layer \(name): no legend for zoom \(query.zoom) (rendered: \(range))")
        }
        return .stored(StoredLegendDocument(layer: name, zoom: query.zoom, scale: storedScale, legend: legend))
    }
}

/// `/{archive}/legend.json`: the legend stored in a pre-rendered archive's metadata.
struct StoredLegendDocument: Encodable {
    var layer: String
    var zoom: Int
    var scale: Int
    /// Always true: the legend was written when the tiles were.
    var stored = true
    var legend: TileLegend
}
