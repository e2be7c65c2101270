import Foundation
import HeatmapKit

extension TileService {
    /// TileJSON 3.0.0 of a layer; query overrides carry over into its tile URL.
    func tileJSON(_ layer: ServedLayer, request: HTTPRequest, scale: Int = 1) -> HTTPResponse {
        let overrides: TileOverrides
        do {
            overrides = try TileOverrides(query: request.queryItems)
        } catch {
            return .text(.badRequest, error.description)
        }
        return json(document(for: layer, base: baseURL(request), overrides: overrides, scale: scale))
    }

    /// The layers with their TileJSON and tile URLs, gradients and defaults, for the page and clients.
    func catalog(request: HTTPRequest) -> HTTPResponse {
        let base = baseURL(request)
        return json(
            Catalog(
                layers: layers.map { document(for: $0, base: base, overrides: TileOverrides()) }
                    + storedLayers.map { storedDocument($0, base: base) }
                    + (hosted.map(\.name) + stacks.map(\.name)).map { hostedDocument($0, base: base) },
                gradients: GradientPresets.names, attribution: options.attribution))
    }

    /// A live layer's TileJSON for tiles of `scale`: its bounds are the points' extent padded by
    /// the kernel's reach at the lowest zoom offered (see ``PointBounds/padded(byPixels:atZoom:)``).
    private func document(
        for layer: ServedLayer, base: String, overrides: TileOverrides, scale: Int = 1
    ) -> TileJSON {
        let data = layer.current.data
        let query = overrides.query.isEmpty ? "" : "?" + overrides.query
        let settings = overrides.applied(to: layer.settings)
        // In points (pixels at scale 1): a radius in metres is its reach at the lowest zoom.
        let radius =
            settings.radiusMeters == nil
            ? settings.radius
            : (try? layer.layer.kernelRadius(zoom: options.minZoom, settings: settings)) ?? settings.radius
        var bounds: [Double] = [-180, -85.0511, 180, 85.0511]
        if let b = data.bounds?.padded(byPixels: radius, atZoom: options.minZoom).withoutWrapping {
            bounds = [b.west, b.south, b.east, b.north]
        }
        var center: [Double] = [0, 0, 1]
        if let c = data.bounds?.center { center = [c.longitude, c.latitude, Double(c.zoom)] }
        let suffix = scale == 1 ? "" : "@\(scale)x"
        return TileJSON(
            tilejson: "3.0.0", name: layer.name, description: "Heatmap of \(data.count) points",
            attribution: options.attribution, scheme: "xyz",
            tiles: ["\(base)/\(layer.name)/{z}/{x}/{y}\(suffix).png\(query)"], tileSize: 256 * scale,
            minzoom: options.minZoom, maxzoom: options.maxZoom, bounds: bounds, center: center,
            points: data.count, radius: layer.settings.radius, opacity: layer.settings.opacity,
            scales: [1, 2, 3].map { "\(base)/\(layer.name)\($0 == 1 ? "" : "@\($0)x").json\(query)" },
            legend: "\(base)/\(layer.name)/legend.json?z={z}\(scale == 1 ? "" : "&scale=\(scale)")"
                + (overrides.query.isEmpty ? "" : "&" + overrides.query),
            maxPercentile: overrides.applied(to: layer.settings).maximumPercentile)
    }

    func json(_ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return .text(.internalServerError, "cannot encode JSON") }
        return HTTPResponse(
            status: .ok,
            headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Array(data))
    }

    /// `http://HOST` from a plausible `Host` header, else the configured public URL.
    func baseURL(_ request: HTTPRequest) -> String {
        if let host = request.headers.first("Host"), !host.isEmpty, host.utf8.count <= 255,
            host.utf8.allSatisfy({
                $0.isASCIILetter || (0x30...0x39).contains($0)
                    || [
                        UInt8(ascii: "."), UInt8(ascii: "-"),
                        UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"),
                    ].contains($0)
            })
        {
            return "http://\(host)"
        }
        return options.publicURL
    }

    /// The map page.
    func page() -> HTTPResponse {
        let html = MapPage.html(
            leaflet: assets.hasLeaflet ? .local : .cdn, baseMapURL: options.baseMapURL,
            attribution: options.attribution)
        return HTTPResponse(
            status: .ok,
            headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]),
            body: Array(html.utf8))
    }
}

/// TileJSON 3.0.0 (https://github.com/mapbox/tilejson-spec), plus the layer's defaults.
struct TileJSON: Codable {
    var tilejson: String
    var name: String
    var description: String
    var attribution: String
    var scheme: String
    var tiles: [String]
    /// The tiles' side in pixels (256, 512 for `@2x`, 768 for `@3x`), which MapLibre reads.
    var tileSize: Int
    var minzoom: Int
    var maxzoom: Int
    var bounds: [Double]
    var center: [Double]
    var points: Int
    var radius: Int
    var opacity: Double
    /// The TileJSON of each scale (1, 2, 3), for a client to pick sharp tiles; a stored layer lists
    /// the one scale it was rendered at; `nil` for hosted layers and stacks.
    var scales: [String]? = nil
    /// The legend of a zoom, `…/legend.json?z={z}` (`legend.png` for the image); `nil` for layers
    /// other than heatmaps.
    var legend: String? = nil
    /// The percentile tiles are normalised by, when they are.
    var maxPercentile: Double? = nil
    /// The image formats of the tiles: `png` (`tiles`), and `webp` from the same URL with
    /// `.webp` (`?format=webp` on this document's URL gives those in `tiles`).
    var formats: [String] = ["png", "webp"]
}

/// What `/catalog` lists.
struct Catalog: Encodable {
    var layers: [TileJSON]
    var gradients: [String]
    var attribution: String
}
