import Dispatch
import Foundation
import HeatmapCore
import HeatmapKit

/// The tile server's responder: routes, the shared tile cache, one render per key, metrics.
///
/// Every layer is a ``TileLayer`` in one registry (``LayerRegistry``); each route is written
/// once against the layers' capabilities (LayerCapabilities.swift). Cheap answers (cached
/// tiles, JSON, the page) are made on the I/O thread; renders of in-memory layers run on a
/// pool of a thread per core (those of databases on Dispatch's global queue, of other layers
/// and stacks as tasks), and come back through the event loop.
package final class TileService: HTTPResponder {
    /// The options.
    package let options: ServerOptions
    /// Counters for `/metrics`.
    package let metrics = ServerMetrics()
    /// The connection layer's counters (shared with the ``HTTPServer``).
    package let stats: ServerStats
    let registry: LayerRegistry
    let cache: TileCache<TileKey, RenderedTile>
    /// WebP tiles made from the PNG tiles (TileService+WebP.swift), a quarter of the PNG cache's size.
    let webpCache: TileCache<WebPTileKey, RenderedTile>
    let inFlight = InFlightRenders<TileKey>()
    /// The WebP encodes under way: one per WebP tile however many ask for it at once.
    let webpInFlight = InFlightRenders<WebPTileKey>()
    let assets: StaticAssets
    /// Renders that may wait on something else (a database, an upstream, a percentile's pass).
    let renderQueue = DispatchQueue.global(qos: .userInitiated)
    /// Renders of in-memory layers: CPU work on a thread per core.
    let renderPool = RenderPool(threads: ProcessInfo.processInfo.activeProcessorCount)
    /// The percentile searches `max-percentile=` starts, bounded.
    let percentileSearches = PercentileAdmission()
    /// The pixels of static images drawn at once, bounded.
    let staticImages = StaticImageAdmission()
    /// The layers whose source fails, so that its detail is logged once an episode.
    let sourceFailures = SourceFailureLog()

    /// Creates the responder over `layers` (any ``TileLayer``s with names fit for URLs: the
    /// heatmaps as ``ServedLayer``s, archives as ``StoredLayer``s, URL layers and your own as
    /// ``HostedLayer``s) and the named `stacks` of them, bottom first.
    ///
    /// - Throws: ``OverrideError`` when two layers share a name, there are none, a stack names
    ///   a layer that does not exist, or the zooms offered are not a range within 0...22.
    package init(
        serving layers: [any TileLayer], stacks: [StackDefinition] = [], options: ServerOptions = ServerOptions(),
        stats: ServerStats = ServerStats()
    ) throws(OverrideError) {
        guard !layers.isEmpty else { throw OverrideError("no layers to serve") }
        guard 0 <= options.minZoom, options.minZoom <= options.maxZoom, options.maxZoom <= WebMercator.maximumZoom
        else {
            throw OverrideError(
                "zooms \(options.minZoom)...\(options.maxZoom) are not within 0...\(WebMercator.maximumZoom), lowest first"
            )
        }
        let registry = try LayerRegistry(layers: layers, stacks: stacks)
        self.registry = registry
        self.options = options
        self.stats = stats
        let cache = TileCache<TileKey, RenderedTile>(capacityBytes: options.cacheBytes)
        self.cache = cache
        webpCache = TileCache(capacityBytes: options.cacheBytes / 4)
        for case let live as any LiveTileLayer in layers {
            live.caches.attach(cache) { [weak registry] name in registry?.draws(name, from: live) ?? false }
        }
        assets = StaticAssets(leafletDirectory: options.leafletDirectory)
    }

    /// Creates the responder over heatmaps, `stored` archives and `hosted` layers, in that
    /// order, and the named `stacks` of them (see ``init(serving:stacks:options:stats:)``).
    ///
    /// - Throws: ``OverrideError`` as ``init(serving:stacks:options:stats:)``.
    package convenience init(
        layers: [ServedLayer], stored: [StoredLayer] = [], hosted: [HostedLayer] = [],
        stacks: [StackDefinition] = [], options: ServerOptions = ServerOptions(), stats: ServerStats = ServerStats()
    ) throws(OverrideError) {
        try self.init(
            serving: layers as [any TileLayer] + stored as [any TileLayer] + hosted as [any TileLayer], stacks: stacks,
            options: options, stats: stats)
    }

    /// Every layer and named stack, in the order given.
    package var layers: [any TileLayer] { registry.layers }

    /// Answers a request.
    package func respond(to request: HTTPRequest) -> HTTPReply {
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
            return tile(request, name: name, zoom: zoom, x: x, y: y, scale: scale)
        case .staticImage(let name, let viewport):
            return staticImage(request, name: name, viewport: viewport)
        case .badStatic(let reason):
            return finish(.text(.badRequest, reason), route: route)
        case .badTile(let reason):
            return finish(.text(.badRequest, reason), route: route)
        case .legend(let name, let format):
            return legend(request, name: name, format: format)
        case .tileJSON(let name, let scale):
            return finish(tileJSON(name, request: request, scale: scale), route: route)
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
        let live = registry.layers.compactMap { $0 as? any LiveTileLayer }
        return metrics.exposition(
            stats: stats, cache: (cache.count, cache.bytes), layers: live.map { ($0.name, $0.pointCount) })
            + percentileMetricsText() + staticImageMetricsText() + filterMetricsText()
    }

    /// Loads every reloadable layer's source again with `loader` and swaps the data in; the
    /// cache is dropped. Requests under way finish on the old data. Returns the errors, one a layer.
    @discardableResult
    package func reload(using loader: (String) throws(LayerLoadError) -> LayerData) -> [LayerLoadError] {
        var errors: [LayerLoadError] = []
        for case let layer as any ReloadableLayer in registry.layers where !layer.source.isEmpty {
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

    /// The files of the layers read from files, in the order given (for the watcher).
    package var sources: [String] {
        registry.layers.compactMap { ($0 as? any ReloadableLayer)?.source }.filter { !$0.isEmpty }
    }
}

/// Data that could not be loaded for a layer.
package struct LayerLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the file.
    package var description: String

    /// Creates an error.
    package init(_ description: String) { self.description = description }
}
