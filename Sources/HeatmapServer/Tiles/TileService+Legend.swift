import HeatmapKit

extension TileService {
    /// `/{layer}/legend.png?z=Z` and `/{layer}/legend.json?z=Z`: the colour scale of zoom Z with
    /// its values, for the layer's settings with the tile query parameters applied (`scale=`
    /// 1...3 for the M(z) of high-DPI tiles, `stops=` 2...64); computed off the I/O thread (M(z)
    /// may be computed first); a strong `ETag` from the bytes, CORS as tiles.
    ///
    /// - A layer with a legend (``LegendLayer``) gives it: drawn from M(z) (the heatmap: JSON and
    ///   PNG), or stored with its tiles (an archive `heatmap render` wrote: JSON only; its
    ///   colours are fixed, so settings are refused).
    /// - A **stack**: `legend.json` lists each member's legend at Z, the stack's query parameters
    ///   applied to its heatmaps as on its tiles; `legend.png` is 404 naming the members' own.
    /// - Any other (a URL layer, one of your own): 404 with the reason, since its colours are
    ///   the upstream's and HeatmapKit knows no M(z) for them.
    func legend(_ request: HTTPRequest, name: String, format: Route.LegendFormat) -> HTTPReply {
        let route = Route.legend(layer: name, format: format)
        let layer: any TileLayer
        let query: LegendQuery
        do {
            layer = try registry.entry(named: name).get().layer
            query = try LegendQuery(request.queryItems, zooms: options.minZoom...options.maxZoom)
        } catch let error as LookupFailure {
            return finish(.text(error.status, error.message), route: route)
        } catch {
            return finish(.text(.badRequest, "\(error)"), route: route)
        }
        let base = baseURL(request)
        if let stack = layer as? any CompositeLayer {
            guard format == .json else {
                let own = stack.layers.map { "/\($0.name)/legend.png" }.joined(separator: ", ")
                return finish(
                    .text(
                        .notFound,
                        "stack \(name) has a legend per layer: \(own), or all of them in /\(name)/legend.json"),
                    route: route)
            }
            return .deferred { [self] completion in
                renderQueue.async { [self] in
                    let document = StackLegendDocument(
                        layer: name, zoom: query.zoom,
                        members: stack.layers.map { member(legendOf: $0, query: query, base: base) })
                    completion(decorate(validated(json(document), request), route: route))
                }
            }
        }
        guard let legendLayer = layer as? any LegendLayer else {
            return finish(
                .text(
                    .notFound,
                    "layer \(name) draws tiles from a URL (or your own layer): their colours are its own, and it "
                        + "has no M(z) to make a legend of"),
                route: route)
        }
        guard query.overrides.isEmpty || LayerRegistry.takesSettings(layer) else {
            return finish(
                .text(
                    .badRequest,
                    "layer \(name) is pre-rendered: its colours are fixed, without \(query.overrides.query)"),
                route: route)
        }
        // A percentile not known yet: one of the bounded searches (see PercentileAdmission).
        let search = (layer as? any LiveTileLayer)?.percentileSearch(
            zoom: query.zoom, scale: query.scale, settings: query.overrides)
        if let search, let reason = percentileSearches.admit(search) {
            return finish(busyResponse(reason), route: route)
        }
        return .deferred { [self] completion in
            renderQueue.async { [self] in
                defer { if let search { percentileSearches.release(search) } }
                completion(decorate(legendResponse(legendLayer, query: query, format: format, request), route: route))
            }
        }
    }

    private func legendResponse(
        _ layer: any LegendLayer, query: LegendQuery, format: Route.LegendFormat, _ request: HTTPRequest
    ) -> HTTPResponse {
        do {
            switch (try layer.legend(query, base: baseURL(request)), format) {
            case (.drawn(_, let document), .json): return validated(json(document), request)
            case (.drawn(let legend, _), .png): return legendPNG(legend, request: request)
            case (.stored(let document), .json): return validated(json(document), request)
            case (.stored, .png):
                return .text(
                    .notFound,
                    "layer \(layer.name) is pre-rendered: its legend is /\(layer.name)/legend.json?z=\(query.zoom)")
            }
        } catch let error as LookupFailure {
            return .text(error.status, error.message)
        } catch {
            if let failure = sourceFailure(error, layer: layer.name) { return failureResponse(failure) }
            return .text(.badRequest, "\(error)")
        }
    }

    /// One member's entry in a stack's legend.
    private func member(legendOf layer: any TileLayer, query: LegendQuery, base: String) -> StackLegendDocument.Member {
        let name = layer.name
        if layer is any CompositeLayer {
            return .init(layer: name, kind: "stack", reason: "a stack: its legends are /\(name)/legend.json")
        }
        guard let legendLayer = layer as? any LegendLayer else {
            return .init(
                layer: name, kind: "url", reason: "tiles from a URL: their colours are the upstream's, no legend")
        }
        do {
            switch try legendLayer.legend(query, base: base) {
            case .drawn(_, let document): return .init(layer: name, kind: legendLayer.legendKind, legend: document)
            case .stored(let document): return .init(layer: name, kind: legendLayer.legendKind, stored: document)
            }
        } catch let error as LookupFailure {
            return .init(layer: name, kind: legendLayer.legendKind, reason: error.message)
        } catch {
            let reason = sourceFailure(error, layer: name)?.message ?? "\(error)"
            return .init(layer: name, kind: legendLayer.legendKind, reason: reason)
        }
    }

    private func legendPNG(_ legend: Legend, request: HTTPRequest) -> HTTPResponse {
        guard let png = try? PNGEncoder().encode(legend.image()) else {
            return .text(.internalServerError, "could not encode the legend")
        }
        let etag = ETag.strong(for: png)
        var headers = HTTPHeaders([("ETag", etag), ("Cache-Control", options.documentCacheControl)])
        if ETag.matches(request.headers["If-None-Match"], etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", "image/png")
        return HTTPResponse(status: .ok, headers: headers, body: png)
    }
}

/// A legend request's query: `z` (required), `scale`, `stops`, and the tile parameters.
struct LegendQuery {
    var zoom: Int
    var scale = 1
    var stops = Legend.defaultStops
    var overrides: SettingOverrides

    init(_ items: [(name: String, value: String)], zooms: ClosedRange<Int>) throws(OverrideError) {
        do {
            overrides = try SettingOverrides(query: items)
        } catch {
            throw OverrideError(error.description)
        }
        var zoom: Int?
        for (name, value) in items {
            switch name {
            case "z":
                guard let z = Int(value), zooms.contains(z) else {
                    throw OverrideError("z \"\(value)\" is not a zoom in \(zooms.lowerBound)...\(zooms.upperBound)")
                }
                zoom = z
            case "scale":
                guard let s = Int(value), (1...3).contains(s) else {
                    throw OverrideError("scale \"\(value)\" is not 1, 2 or 3")
                }
                scale = s
            case "stops":
                guard let n = Int(value), (2...Legend.maximumStops).contains(n) else {
                    throw OverrideError("stops \"\(value)\" is not a whole number in 2...\(Legend.maximumStops)")
                }
                stops = n
            default: continue
            }
        }
        guard let zoom else { throw OverrideError("a legend needs the zoom: ?z=Z") }
        self.zoom = zoom
    }
}

/// `/{layer}/legend.json`.
struct LegendDocument: Encodable {
    struct Stop: Encodable {
        var value: Double
        var fraction: Double
        var color: String
    }

    struct NormalizationInfo: Encodable {
        /// `maximum`, `fixed` or `percentile`.
        var kind: String
        var value: Double
        /// The zoom whose pixels gave the value.
        var zoom: Int?
        var percentile: Double?
        /// Whether the percentile was ranked at this zoom (false: carried from a coarser zoom, the
        /// pixel limit being reached).
        var exact: Bool?
        var pixels: Int?
        var tiles: Int?
    }

    var layer: String
    var zoom: Int
    var scale: Int
    var maximum: Double
    var normalization: NormalizationInfo
    var colorScale: String
    var gradient: GradientInfo
    var opacity: Double
    var stops: [Stop]
    /// The tile query parameters these colours are for, canonical (`color-scale=log&…`).
    var query: String
    var tiles: String
    var png: String

    struct GradientInfo: Encodable {
        var colors: [String]
        var startPoints: [Double]
        var colorMapSize: Int
    }

    init(_ legend: Legend, layer: String, query: LegendQuery, base: String) {
        self.layer = layer
        zoom = legend.zoom
        scale = legend.scale
        maximum = legend.maximum
        switch legend.normalization.kind {
        case .fixed: normalization = NormalizationInfo(kind: "fixed", value: legend.maximum)
        case .maximum(let zoom): normalization = NormalizationInfo(kind: "maximum", value: legend.maximum, zoom: zoom)
        case .percentile(let p):
            normalization = NormalizationInfo(
                kind: "percentile", value: legend.maximum, zoom: p.zoom, percentile: p.percentile,
                exact: legend.normalization.isExact,
                pixels: p.pixels, tiles: p.tiles)
        }
        colorScale = legend.colorScale.rawValue
        gradient = GradientInfo(
            colors: legend.gradient.colors.map(Self.hex), startPoints: legend.gradient.startPoints,
            colorMapSize: legend.gradient.colorMapSize)
        opacity = legend.opacity
        stops = legend.stops.map { Stop(value: $0.value, fraction: $0.fraction, color: Self.hex($0.color)) }
        self.query = query.overrides.query
        let suffix = legend.scale == 1 ? "" : "@\(legend.scale)x"
        let tail = self.query.isEmpty ? "" : "?" + self.query
        tiles = "\(base)/\(layer)/{z}/{x}/{y}\(suffix).png\(tail)"
        var pngQuery = "z=\(legend.zoom)" + (legend.scale == 1 ? "" : "&scale=\(legend.scale)")
        if query.stops != Legend.defaultStops { pngQuery += "&stops=\(query.stops)" }
        png = "\(base)/\(layer)/legend.png?\(pngQuery)\(self.query.isEmpty ? "" : "&" + self.query)"
    }

    static func hex(_ c: RGBAColor) -> String {
        "#" + [c.red, c.green, c.blue, c.alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// `/{stack}/legend.json`: each member's legend, bottom first.
struct StackLegendDocument: Encodable {
    struct Member: Encodable {
        var layer: String
        /// `heatmap`, `stored`, `stack` or `url`.
        var kind: String
        var legend: LegendDocument? = nil
        var stored: StoredLegendDocument? = nil
        /// Why there is no legend.
        var reason: String? = nil
    }

    var layer: String
    var zoom: Int
    var members: [Member]
}
