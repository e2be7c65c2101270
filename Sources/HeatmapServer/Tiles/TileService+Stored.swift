import HeatmapKit
import HeatmapTiles

extension TileService {
    /// TileJSON of a pre-rendered layer, from the archive's metadata.
    func storedDocument(_ layer: StoredLayer, base: String) -> TileJSON {
        let meta = layer.reader.metadata
        let b = meta.bounds.withoutWrapping
        let suffix = meta.scale == 1 ? "" : "@\(meta.scale)x"
        let recorded = meta.options
        return TileJSON(
            tilejson: "3.0.0", name: layer.name, description: meta.description,
            attribution: meta.attribution.isEmpty ? options.attribution : meta.attribution, scheme: "xyz",
            tiles: ["\(base)/\(layer.name)/{z}/{x}/{y}\(suffix).png"], tileSize: 256 * meta.scale,
            minzoom: meta.minZoom, maxzoom: meta.maxZoom,
            bounds: [b.west, b.south, b.east, b.north],
            center: [meta.center.longitude, meta.center.latitude, Double(meta.center.zoom)],
            points: Int(recorded["points"] ?? "") ?? 0, radius: Int(recorded["radius"] ?? "") ?? 20,
            opacity: Double(recorded["opacity"] ?? "") ?? 0.7)
    }
}
