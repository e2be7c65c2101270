import HeatmapKit

/// The routes the server answers; any other path is 404.
enum Route: Equatable {
    case page
    case asset(String)
    case catalog
    case health
    case metrics
    /// TileJSON for tiles of `scale` (1, or 2 and 3 from `/{layer}@2x.json`, `@3x.json`).
    case tileJSON(layer: String, scale: Int = 1)
    case tile(layer: String, zoom: Int, x: Int, y: Int, scale: Int)
    /// A tile path whose coordinates are not numbers (400).
    case badTile(String)
    /// `/static/{layer}/{lon},{lat},{zoom}/{width}x{height}[@2x].png`.
    case staticImage(layer: String, viewport: Viewport)
    /// A static image path whose values are not numbers (400).
    case badStatic(String)
    /// `/{layer}/legend.png` and `/{layer}/legend.json` (see TileService+Legend.swift).
    case legend(layer: String, format: LegendFormat)
    /// `/{layer}/points`: `POST` appends, `DELETE` removes (see TileService+Points.swift).
    case points(layer: String)
    case notFound

    /// What a legend is answered as.
    enum LegendFormat: String, Equatable {
        case png
        case json
    }

    /// The label in metrics.
    var name: String {
        switch self {
        case .page: "page"
        case .asset: "asset"
        case .catalog: "catalog"
        case .health: "health"
        case .metrics: "metrics"
        case .tileJSON: "tilejson"
        case .tile, .badTile: "tile"
        case .staticImage, .badStatic: "static"
        case .legend: "legend"
        case .points: "points"
        case .notFound: "other"
        }
    }

    /// Matches a path (still percent-encoded: layer names never need encoding, so an encoded
    /// path matches nothing, and `..` is never a file name).
    init(path: String) {
        switch path {
        case "/", "/index.html": self = .page
        case "/catalog": self = .catalog
        case "/health": self = .health
        case "/metrics": self = .metrics
        default: self = Route.parse(path)
        }
    }

    private static func parse(_ path: String) -> Route {
        fastTile(path) ?? generalParse(path)
    }

    static func generalParse(_ path: String) -> Route {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if parts.count == 1, let name = parts.first, name.hasSuffix(".json"), name.count > 5 {
            let layer = name.dropLast(5)
            for (suffix, scale) in [("@2x", 2), ("@3x", 3)] where layer.hasSuffix(suffix) && layer.count > 3 {
                return .tileJSON(layer: String(layer.dropLast(3)), scale: scale)
            }
            return .tileJSON(layer: String(layer))
        }
        if let image = parseStatic(Array(parts)) { return image }
        if parts.count == 2, let layer = parts.first, !layer.isEmpty, let last = parts.last,
            last.hasPrefix("legend."), let format = LegendFormat(rawValue: String(last.dropFirst(7)))
        {
            return .legend(layer: String(layer), format: format)
        }
        if parts.count == 2, parts.last == "points", let name = parts.first, !name.isEmpty {
            return .points(layer: String(name))
        }
        guard parts.count == 4, let last = parts.last, last.hasSuffix(".png") else {
            // Leaflet's files, never four parts deep, so a layer may be called "leaflet" too.
            if parts.first == "leaflet", parts.count >= 2 { return .asset(parts.dropFirst().joined(separator: "/")) }
            return .notFound
        }
        let values = Array(parts)
        var yText = last.dropLast(4)
        var scale = 1
        for (suffix, value) in [("@1x", 1), ("@2x", 2), ("@3x", 3)] where yText.hasSuffix(suffix) {
            yText = yText.dropLast(3)
            scale = value
        }
        guard let zoom = number(values[1]), let x = number(values[2]), let y = number(yText) else {
            return .badTile("the tile must be /LAYER/Z/X/Y.png with whole numbers (Y@2x.png or Y@3x.png for high DPI)")
        }
        return .tile(layer: String(values[0]), zoom: zoom, x: x, y: y, scale: scale)
    }

    /// Decimal digits only, at most 8 of them.
    static func number(_ text: Substring) -> Int? {
        guard (1...8).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
