import HeatmapKit
import HeatmapTiles

extension TileService {
    /// TileJSON of a pre-rendered layer for `/{layer}.json` (its own scale, whatever it is) and
    /// `/{layer}@2x.json`, `/{layer}@3x.json` (only when the archive was rendered at that scale:
    /// its tiles exist at one scale only, so another is 404 naming the one it has).
    func storedTileJSON(_ layer: StoredLayer, request: HTTPRequest, scale: Int) -> HTTPResponse {
        let stored = layer.storedScale
        guard scale == 1 || scale == stored else {
            let own = stored == 1 ? "/\(layer.name).json" : "/\(layer.name)@\(stored)x.json"
            return .text(
                .notFound,
                "layer \(layer.name) is pre-rendered at scale \(stored) only (\(256 * stored) px tiles): "
                    + "there are no @\(scale)x tiles; use \(own)")
        }
        return validated(json(storedDocument(layer, base: baseURL(request))), request)
    }

    /// TileJSON of a pre-rendered layer, from the archive's metadata; `scales` lists the one
    /// TileJSON of the scale its tiles were rendered at.
    func storedDocument(_ layer: StoredLayer, base: String) -> TileJSON {
        let meta = layer.reader.metadata
        let b = meta.bounds.withoutWrapping
        let scale = layer.storedScale
        let suffix = scale == 1 ? "" : "@\(scale)x"
        let recorded = meta.options
        return TileJSON(
            tilejson: "3.0.0", name: layer.name, description: meta.description,
            attribution: meta.attribution.isEmpty ? options.attribution : meta.attribution, scheme: "xyz",
            tiles: ["\(base)/\(layer.name)/{z}/{x}/{y}\(suffix).png"], tileSize: 256 * scale,
            minzoom: meta.minZoom, maxzoom: meta.maxZoom,
            bounds: [b.west, b.south, b.east, b.north],
            center: [meta.center.longitude, meta.center.latitude, Double(meta.center.zoom)],
            points: Int(recorded["points"] ?? "") ?? 0, radius: Int(recorded["radius"] ?? "") ?? 20,
            opacity: Double(recorded["opacity"] ?? "") ?? 0.7, scales: ["\(base)/\(layer.name)\(suffix).json"])
    }
}
