import HeatmapKit

extension TileService {
    /// `/{layer}/legend.png?z=Z` and `/{layer}/legend.json?z=Z`: the colour scale of zoom Z with
    /// its values, for the layer's settings with the tile query parameters applied (`scale=`
    /// 1...3 for the M(z) of high-DPI tiles, `stops=` 2...64). Computed off the I/O thread (M(z)
    /// may be computed first); a strong `ETag` from the bytes, CORS as tiles.
    func legend(_ request: HTTPRequest, name: String, format: Route.LegendFormat) -> HTTPReply {
        let route = Route.legend(layer: name, format: format)
        // Archives, stacks and URL layers: TileService+LayerLegends.swift.
        guard let layer = byName[name] else { return otherLegend(request, name: name, format: format, route: route) }
        let query: LegendQuery
        do {
            query = try LegendQuery(request.queryItems, zooms: options.minZoom...options.maxZoom)
        } catch {
            return finish(.text(.badRequest, error.description), route: route)
        }
        let settings = query.overrides.applied(to: layer.settings)
        let base = baseURL(request)
        // A percentile not known yet: one of the bounded searches (see PercentileAdmission).
        let search = percentileSearch(layer: layer, zoom: query.zoom, scale: query.scale, settings: settings)
        if let search, let reason = percentileSearches.admit(search) {
            return finish(percentileRefusal(reason), route: route)
        }
        return .deferred { [self] completion in
            renderQueue.async { [self] in
                defer { if let search { percentileSearches.release(search) } }
                let response: HTTPResponse
                do throws(HeatmapError) {
                    let legend = try layer.layer.legend(
                        zoom: query.zoom, scale: query.scale, settings: settings, stops: query.stops)
                    switch format {
                    case .json:
                        response = validated(
                            json(LegendDocument(legend, layer: name, query: query, base: base)), request)
                    case .png:
                        response = legendPNG(legend, request: request)
                    }
                } catch {
                    if let failure = sourceFailure(error, layer: name) {
                        response = failureResponse(failure)
                    } else {
                        response = .text(.badRequest, error.description)
                    }
                }
                completion(decorate(response, route: route))
            }
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
    var overrides: TileOverrides

    init(_ items: [(name: String, value: String)], zooms: ClosedRange<Int>) throws(OverrideError) {
        overrides = try TileOverrides(query: items)
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
