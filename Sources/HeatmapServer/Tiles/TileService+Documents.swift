import Foundation
import HeatmapKit

extension TileService {
    /// `/{layer}.json` and `/{layer}@2x.json`: TileJSON of a layer or named stack, from the
    /// layer itself where it describes itself (its settings from the query carried into its
    /// tile URLs), else the plain document of every zoom offered over the whole world.
    func tileJSON(_ name: String, request: HTTPRequest, scale: Int) -> HTTPResponse {
        guard let layer = registry.registered(name) else { return .text(.notFound, "no layer \(name)") }
        var settings = SettingOverrides()
        if LayerRegistry.takesSettings(layer) {
            do {
                settings = try SettingOverrides(query: request.queryItems)
            } catch {
                return .text(.badRequest, error.description)
            }
        }
        do {
            let document = try document(for: layer, base: baseURL(request), settings: settings, scale: scale)
            return validated(inRequestedFormat(json(document), request: request), request)
        } catch {
            return .text(error.status, error.message)
        }
    }

    /// The layers with their TileJSON and tile URLs, gradients and defaults, for the page and clients.
    func catalog(request: HTTPRequest) -> HTTPResponse {
        let base = baseURL(request)
        return json(
            Catalog(
                layers: registry.layers.compactMap { try? document(for: $0, base: base, settings: SettingOverrides()) },
                gradients: GradientPresets.names, attribution: options.attribution,
                controls: SettingsSchema.pageControls))
    }

    /// A layer's TileJSON: its own description (``TileJSONLayer``), else every zoom offered,
    /// the whole world, and for a stack the names of its layers.
    func document(for layer: any TileLayer, base: String, settings: SettingOverrides, scale: Int = 1)
        throws(LookupFailure) -> TileJSON
    {
        if let described = layer as? any TileJSONLayer {
            return try described.tileJSON(base: base, settings: settings, scale: scale, options: options)
        }
        let description = (layer as? any CompositeLayer).map {
            "Stack of " + $0.layers.map(\.name).joined(separator: ", ")
        }
        return TileJSON(
            tilejson: "3.0.0", name: layer.name, description: description ?? "", attribution: options.attribution,
            scheme: "xyz", tiles: ["\(base)/\(layer.name)/{z}/{x}/{y}.png"], tileSize: layer.tileSize,
            minzoom: options.minZoom, maxzoom: options.maxZoom, bounds: [-180, -85.0511, 180, 85.0511],
            center: [0, 0, 1], points: 0, radius: 0, opacity: layer.opacity)
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

    /// `http://HOST` from a plausible `Host` header (`https://HOST` when a proxy says the client
    /// came over HTTPS: see ``forwardedOverHTTPS(_:)``), else the configured public URL.
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
            return (Self.forwardedOverHTTPS(request) ? "https://" : "http://") + host
        }
        return options.publicURL
    }

    /// Whether a proxy in front says the client's request came over HTTPS: the first value of
    /// `X-Forwarded-Proto` (nginx's `proxy_set_header X-Forwarded-Proto $scheme;`), or the first
    /// element's `proto` of RFC 7239's `Forwarded`, is `https`. The header only picks one of two
    /// literal schemes; nothing of it is copied into a document.
    static func forwardedOverHTTPS(_ request: HTTPRequest) -> Bool {
        func first(_ list: String) -> Substring {
            (list.split(separator: ",", omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: .whitespaces)[...]
        }
        if let proto = request.headers.first("X-Forwarded-Proto") {
            return first(proto).lowercased() == "https"
        }
        guard let forwarded = request.headers.first("Forwarded") else { return false }
        for pair in first(forwarded).split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "proto" else {
                continue
            }
            return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).lowercased() == "https"
        }
        return false
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
    /// The first and last time of the points, `[START, END]` in ISO 8601 UTC (`datetime=`
    /// filters), when the layer was read with `--time`.
    var timeRange: [String]? = nil
    /// Each category column's values with their counts (the most frequent 100), when the layer
    /// was read with `--categories` (`category=` filters).
    var categories: [CategoryFacet]? = nil
}

/// A category column of a layer, as TileJSON and `/catalog` list it.
struct CategoryFacet: Codable {
    /// A value and how many points hold it.
    struct Value: Codable {
        var value: String
        var count: Int
    }
    var column: String
    /// The values, the most frequent first (at most 100).
    var values: [Value]
    /// How many distinct values the column holds.
    var distinct: Int
}

/// What `/catalog` lists.
struct Catalog: Encodable {
    var layers: [TileJSON]
    var gradients: [String]
    var attribution: String
    /// The map page's controls, one a setting (see ``SettingsSchema/pageControls``).
    var controls: [PageControl]
}
