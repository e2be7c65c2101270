import HeatmapKit
import HeatmapTiles

extension TileService {
    /// A pre-rendered tile: its stored bytes (read off the I/O thread), 204 when none is
    /// stored, 400 off the grid; ETags as for live tiles. The stored size answers any
    /// `@2x`/`@3x` suffix (map clients size tiles themselves).
    func storedTile(_ request: HTTPRequest, layer: StoredLayer, zoom: Int, x: Int, y: Int, scale: Int) -> HTTPReply {
        let route = Route.tile(layer: layer.name, zoom: zoom, x: x, y: y, scale: scale)
        guard (0...22).contains(zoom), x < 1 << zoom, y < 1 << zoom else {
            return finish(
                .text(.badRequest, "tile \(zoom)/\(x)/\(y) is outside the grid of zoom \(zoom) (zooms 0...22)"),
                route: route)
        }
        return .deferred { [self] completion in
            renderQueue.async { [self] in
                do {
                    let bytes = try layer.reader.tileData(z: zoom, x: x, y: y)
                    let tile = RenderedTile(bytes.map { TileResult.image($0) } ?? .noTile)
                    let response = tileResponse(tile, request: request, scale: layer.reader.metadata.scale)
                    completion(decorate(response, route: route))
                } catch {
                    metrics.renderFailed()
                    completion(decorate(.text(.internalServerError, "\(error)"), route: route))
                }
            }
        }
    }

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
