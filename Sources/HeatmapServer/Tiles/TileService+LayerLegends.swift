import HeatmapKit
import HeatmapTiles

extension TileService {
    /// The legend of a layer that is not a heatmap of the server's own:
    ///
    /// - a **pre-rendered** archive: `legend.json` is the legend `heatmap render` wrote into its
    ///   metadata for zoom Z (its tiles are fixed, so tile parameters are refused); 404 naming
    ///   why when the archive has none for Z. `legend.png` is 404 pointing to the JSON (the
    ///   archive keeps the stops, not the gradient a picture needs).
    /// - a **stack**: `legend.json` lists each member's legend at Z, the stack's query
    ///   parameters applied to its heatmaps as on its tiles; `legend.png` is 404 naming the
    ///   members' own legends.
    /// - a **URL layer** (or one of your own): 404 with the reason, since its colours are the
    ///   upstream's and HeatmapKit knows no M(z) for them (XYZ tiles have no standard legend
    ///   to pass on).
    func otherLegend(_ request: HTTPRequest, name: String, format: Route.LegendFormat, route: Route) -> HTTPReply {
        guard tileLayers[name] != nil || stackMembers(name) != nil else {
            return finish(.text(.notFound, "no layer \(name)"), route: route)
        }
        let query: LegendQuery
        do {
            query = try LegendQuery(request.queryItems, zooms: options.minZoom...options.maxZoom)
        } catch {
            return finish(.text(.badRequest, error.description), route: route)
        }
        if let stored = storedByName[name] {
            guard format == .json else {
                return finish(
                    .text(
                        .notFound, "layer \(name) is pre-rendered: its legend is /\(name)/legend.json?z=\(query.zoom)"),
                    route: route)
            }
            guard query.overrides.isEmpty else {
                return finish(
                    .text(
                        .badRequest,
                        "layer \(name) is pre-rendered: its colours are fixed, without \(query.overrides.query)"),
                    route: route)
            }
            switch Self.storedLegend(stored, zoom: query.zoom) {
            case .success(let document): return finish(validated(json(document), request), route: route)
            case .failure(let reason): return finish(.text(.notFound, reason.message), route: route)
            }
        }
        guard let members = stackMembers(name) else {
            return finish(
                .text(
                    .notFound,
                    "layer \(name) draws tiles from a URL (or your own layer): their colours are its own, and it "
                        + "has no M(z) to make a legend of"),
                route: route)
        }
        guard format == .json else {
            let own = members.map { "/\($0)/legend.png" }.joined(separator: ", ")
            return finish(
                .text(
                    .notFound, "stack \(name) has a legend per layer: \(own), or all of them in /\(name)/legend.json"),
                route: route)
        }
        let base = baseURL(request)
        return .deferred { [self] completion in
            renderQueue.async { [self] in
                let document = StackLegendDocument(
                    layer: name, zoom: query.zoom,
                    members: members.map { member(legendOf: $0, query: query, base: base) })
                completion(decorate(validated(json(document), request), route: route))
            }
        }
    }

    /// One member's entry in a stack's legend.
    private func member(legendOf name: String, query: LegendQuery, base: String) -> StackLegendDocument.Member {
        if let served = byName[name] {
            do throws(HeatmapError) {
                let legend = try served.layer.legend(
                    zoom: query.zoom, scale: query.scale, settings: query.overrides.applied(to: served.settings),
                    stops: query.stops)
                return .init(
                    layer: name, kind: "heatmap", legend: LegendDocument(legend, layer: name, query: query, base: base))
            } catch {
                let reason = sourceFailure(error, layer: name)?.message ?? error.description
                return .init(layer: name, kind: "heatmap", reason: reason)
            }
        }
        if let stored = storedByName[name] {
            switch Self.storedLegend(stored, zoom: query.zoom) {
            case .success(let document): return .init(layer: name, kind: "stored", stored: document)
            case .failure(let failure): return .init(layer: name, kind: "stored", reason: failure.message)
            }
        }
        if stackMembers(name) != nil {
            return .init(layer: name, kind: "stack", reason: "a stack: its legends are /\(name)/legend.json")
        }
        return .init(layer: name, kind: "url", reason: "tiles from a URL: their colours are the upstream's, no legend")
    }

    /// The legend `heatmap render` stored for `zoom`, or why there is none.
    static func storedLegend(_ stored: StoredLayer, zoom: Int) -> Result<StoredLegendDocument, LookupFailure> {
        guard let legends = stored.reader.metadata.legends, !legends.isEmpty else {
            return .failure(
                LookupFailure(
                    status: .notFound,
                    message: "layer \(stored.name): the archive has no legends (rendered before render wrote them)"))
        }
        guard let legend = legends[String(zoom)] else {
            let zooms = legends.keys.compactMap { Int($0) }.sorted()
            let range = zooms.first.map { "\($0)...\(zooms.last ?? $0)" } ?? "none"
            return .failure(
                LookupFailure(
                    status: .notFound, message: "layer \(stored.name): no legend for zoom \(zoom) (rendered: \(range))")
            )
        }
        return .success(StoredLegendDocument(layer: stored.name, zoom: zoom, scale: stored.storedScale, legend: legend))
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
