import Dispatch
import Foundation
import HeatmapKit

/// The tile server's responder: routes, the shared tile cache, one render per key, metrics.
///
/// Cheap answers (cached tiles, JSON, the page) are made on the I/O thread; renders of in-memory
/// layers run on a pool of a thread per core (those of databases and hosted layers on Dispatch's
/// global queue), and come back through the event loop.
public final class TileService: HTTPResponder {
    /// The layers in the order given.
    public let layers: [ServedLayer]
    /// The options.
    public let options: ServerOptions
    /// Counters for `/metrics`.
    public let metrics = ServerMetrics()
    /// The connection layer's counters (shared with the ``HTTPServer``).
    public let stats: ServerStats
    let byName: [String: ServedLayer]
    /// The pre-rendered layers, in the order given, and by name.
    public let storedLayers: [StoredLayer]
    let storedByName: [String: StoredLayer]
    /// The layers hosted as they are (URL layers, your own), in the order given.
    public let hosted: [HostedLayer]
    /// The named stacks, in the order given.
    public let stacks: [StackDefinition]
    /// Every layer but the heatmaps, by name: pre-rendered, hosted and stacks.
    let tileLayers: [String: any TileLayer]
    let cache: TileCache<TileKey, RenderedTile>
    /// WebP tiles made from the PNG tiles (TileService+WebP.swift), a quarter of the PNG cache's size.
    let webpCache: TileCache<WebPTileKey, RenderedTile>
    let inFlight = InFlightRenders()
    let assets: StaticAssets
    /// Renders that may wait on something else (a database, an upstream, a percentile's pass).
    let renderQueue = DispatchQueue.global(qos: .userInitiated)
    /// Renders of in-memory layers: CPU work on a thread per core.
    let renderPool = RenderPool(threads: ProcessInfo.processInfo.activeProcessorCount)
    /// The percentile searches `max-percentile=` starts, bounded.
    let percentileSearches = PercentileAdmission()
    /// The layers whose source fails, so that its detail is logged once an episode.
    let sourceFailures = SourceFailureLog()

    /// Creates the responder.
    ///
    /// - Parameters:
    ///   - stored: pre-rendered layers, served beside the live ones on the same routes.
    ///   - hosted: any other ``TileLayer``s (URL layers, your own), on the same routes.
    ///   - stacks: named stacks of the layers above (or of stacks defined before), bottom first.
    /// - Throws: ``OverrideError`` when two layers share a name, there are none, a stack names
    ///   a layer that does not exist, or the zooms offered are not a range within 0...22.
    public init(
        layers: [ServedLayer], stored: [StoredLayer] = [], hosted: [HostedLayer] = [],
        stacks: [StackDefinition] = [], options: ServerOptions = ServerOptions(), stats: ServerStats = ServerStats()
    ) throws(OverrideError) {
        guard !layers.isEmpty || !stored.isEmpty || !hosted.isEmpty else { throw OverrideError("no layers to serve") }
        guard 0 <= options.minZoom, options.minZoom <= options.maxZoom, options.maxZoom <= WebMercator.maximumZoom
        else {
            throw OverrideError(
                "zooms \(options.minZoom)...\(options.maxZoom) are not within 0...\(WebMercator.maximumZoom), lowest first"
            )
        }
        var byName: [String: ServedLayer] = [:]
        var storedByName: [String: StoredLayer] = [:]
        var tileLayers: [String: any TileLayer] = [:]
        var seen: Set<String> = []
        for name in layers.map(\.name) + stored.map(\.name) + hosted.map(\.name) + stacks.map(\.name) {
            guard seen.insert(name).inserted else { throw OverrideError("two layers are named \(name)") }
        }
        for layer in layers { byName[layer.name] = layer }
        for layer in stored {
            storedByName[layer.name] = layer
            tileLayers[layer.name] = layer
        }
        for layer in hosted { tileLayers[layer.name] = layer.layer }
        for stack in stacks {
            guard ServedLayer.isValidName(stack.name), !stack.layers.isEmpty else {
                throw OverrideError("stack \"\(stack.name)\" needs a name fit for URLs and at least one layer")
            }
            var members: [any TileLayer] = []
            for member in stack.layers {
                guard let layer = byName[member]?.layer ?? tileLayers[member] else {
                    throw OverrideError("stack \(stack.name): no layer \(member)")
                }
                members.append(layer)
            }
            tileLayers[stack.name] = TileStack(members, name: stack.name, cacheBytes: 0)
        }
        self.hosted = hosted
        self.stacks = stacks
        self.tileLayers = tileLayers
        self.layers = layers
        self.byName = byName
        storedLayers = stored
        self.storedByName = storedByName
        self.options = options
        self.stats = stats
        cache = TileCache(capacityBytes: options.cacheBytes)
        webpCache = TileCache(capacityBytes: options.cacheBytes / 4)
        for layer in layers { layer.caches.attach(cache) }
        assets = StaticAssets(leafletDirectory: options.leafletDirectory)
    }

    /// Answers a request.
    public func respond(to request: HTTPRequest) -> HTTPReply {
        let route = Route(path: request.path)
        if let (status, reason) = Self.targetRefusal(path: request.path, query: request.query) {
            return finish(.text(status, reason), route: route)
        }
        if request.method == "OPTIONS", options.cors { return finish(optionsResponse(request), route: route) }
        if case .points(let name) = route { return points(request, layer: name) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text(.methodNotAllowed, "only GET and HEAD are allowed")
            response.headers.add("Allow", options.cors ? "GET, HEAD, OPTIONS" : "GET, HEAD")
            return finish(response, route: route)
        }
        switch route {
        case .tile(let name, let zoom, let x, let y, let scale):
            if let layer = byName[name] { return tile(request, layer: layer, zoom: zoom, x: x, y: y, scale: scale) }
            switch tileLayer(named: name) {
            case .success(let layer):
                return hostedTile(request, name: name, layer: layer, zoom: zoom, x: x, y: y, scale: scale)
            case .failure(let failure): return finish(.text(failure.status, failure.message), route: route)
            }
        case .staticImage(let name, let viewport):
            return staticImage(request, name: name, viewport: viewport)
        case .badStatic(let reason):
            return finish(.text(.badRequest, reason), route: route)
        case .badTile(let reason):
            return finish(.text(.badRequest, reason), route: route)
        case .legend(let name, let format):
            return legend(request, name: name, format: format)
        case .tileJSON(let name, let scale):
            if let stored = storedByName[name] {
                return finish(
                    inRequestedFormat(storedTileJSON(stored, request: request, scale: scale), request: request),
                    route: route)
            }
            if let layer = byName[name] {
                let document = inRequestedFormat(tileJSON(layer, request: request, scale: scale), request: request)
                return finish(validated(document, request), route: route)
            }
            guard tileLayers[name] != nil else { return finish(.text(.notFound, "no layer \(name)"), route: route) }
            let document = inRequestedFormat(json(hostedDocument(name, base: baseURL(request))), request: request)
            return finish(validated(document, request), route: route)
        case .catalog: return finish(validated(catalog(request: request), request), route: route)
        case .health: return finish(.text(.ok, "ok"), route: route)
        case .metrics:
            var response = HTTPResponse.text(.ok, metricsText())
            response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            return finish(response, route: route)
        case .page: return finish(validated(page(), request), route: route)
        case .asset(let name):
            guard let asset = assets.files[name] else { return finish(.text(.notFound, "not found"), route: route) }
            var response = HTTPResponse(status: .ok, body: asset.bytes)
            response.headers.add("Content-Type", asset.contentType)
            response.headers.add("Cache-Control", "public, max-age=86400")
            return finish(response, route: route)
        case .points, .notFound:
            if let webp = webpTile(request) { return webp }
            return finish(.text(.notFound, "not found"), route: route)
        }
    }

    /// Adds the common headers and counts the response.
    func finish(_ response: HTTPResponse, route: Route) -> HTTPReply {
        .response(decorate(response, route: route))
    }

    func decorate(_ response: HTTPResponse, route: Route) -> HTTPResponse {
        var response = response
        if options.cors { response.headers.add("Access-Control-Allow-Origin", "*") }
        response.headers.add("X-Content-Type-Options", "nosniff")
        metrics.request(route: route.name, status: response.status.code)
        return response
    }

    func metricsText() -> String {
        metrics.exposition(
            stats: stats, cache: (cache.count, cache.bytes),
            layers: layers.map { ($0.name, $0.current.data.count) }) + percentileMetricsText()
    }

    /// Loads every layer's source again with `loader` and swaps the data in; the cache is
    /// dropped. Requests under way finish on the old data. Returns the errors, one a layer.
    @discardableResult
    public func reload(using loader: (String) throws(LayerLoadError) -> LayerData) -> [LayerLoadError] {
        var errors: [LayerLoadError] = []
        for layer in layers where !layer.source.isEmpty {
            do {
                layer.replace(with: try loader(layer.source))
                metrics.reloaded(ok: true)
            } catch {
                errors.append(error)
                metrics.reloaded(ok: false)
            }
        }
        cache.removeAll()
        return errors
    }
}

/// Data that could not be loaded for a layer.
public struct LayerLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
