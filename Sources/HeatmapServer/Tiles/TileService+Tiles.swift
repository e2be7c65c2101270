import HeatmapKit

extension TileService {
    /// A layer that could not be found (404), a stack too tall or settings it cannot take (400).
    package struct LookupFailure: Error {
        var status: HTTPStatus
        package var message: String
    }

    /// A tile of any layer: from the cache at once, or drawn once per key off the I/O thread.
    func tile(_ request: HTTPRequest, name: String, zoom: Int, x: Int, y: Int, scale: Int) -> HTTPReply {
        let route = Route.tile(layer: name, zoom: zoom, x: x, y: y, scale: scale)
        if let reason = offGrid(zoom: zoom, x: x, y: y) { return finish(.text(.badRequest, reason), route: route) }
        let entry: LayerRegistry.Entry
        let settings: SettingOverrides
        do {
            entry = try registry.entry(named: name).get()
            settings = try requestSettings(request, for: entry.layer, name: name)
        } catch {
            return finish(.text(error.status, error.message), route: route)
        }
        // The live layers' generations first: a tile cached or drawn after them is at least as new.
        let generations = Generations(entry.live)
        let key = TileKey(
            layer: name, generation: entry.stamp, settings: settings, zoom: zoom, x: x, y: y, scale: scale)
        // Renders are shared per generation: a request after a change never waits for one begun before it.
        var shared = key
        shared.generation = generations.combined(with: key.generation)
        let current: (RenderedTile) -> Bool = { [self] in
            stands($0, key: key, generations: generations, waiting: false)
        }
        return cachedOrShared(request, key: key, route: route, sharedAs: shared, accepting: current) {
            [self] done in
            guard let live = entry.itself else {
                Task(executorPreference: DispatchTaskExecutor.shared) { [self] in done(await render(entry, key: key)) }
                return
            }
            // A percentile not known yet: a bounded search, waited for off the render pool.
            if let search = live.percentileSearch(zoom: zoom, scale: scale, settings: settings) {
                if let reason = percentileSearches.admit(search) {
                    return done(.failure(RenderFailure(status: 503, message: reason)))
                }
                return renderQueue.async { [self] in
                    let result = render(live, entry: entry, key: key)
                    percentileSearches.release(search)
                    done(result)
                }
            }
            let work: @Sendable () -> Void = { [self] in done(render(live, entry: entry, key: key)) }
            switch live.workload {
            case .cpu: renderPool.async(work)
            case .io: renderQueue.async(execute: work)
            }
        }
    }

    /// The settings a tile request gives its layer: its query's (``SettingOverrides``), none
    /// for a layer that draws as it is (an archive, a URL layer: the query does not apply).
    ///
    /// - Throws: ``LookupFailure`` (400) for a parameter that does not parse, or for any given
    ///   to a stack that holds no layer to take them.
    func requestSettings(_ request: HTTPRequest, for layer: any TileLayer, name: String) throws(LookupFailure)
        -> SettingOverrides
    {
        let items = request.queryItems
        guard !items.isEmpty else { return SettingOverrides() }
        let settings: SettingOverrides
        do {
            settings = try SettingOverrides(query: items)
        } catch {
            throw LookupFailure(status: .badRequest, message: error.description)
        }
        if let served = layer as? ServedLayer, let filter = served.filterDefaults.merging(settings).filter {
            do {
                try served.checkFilter(filter, settings: settings)
            } catch {
                throw LookupFailure(status: .badRequest, message: error.description)
            }
        }
        guard !settings.isEmpty, !LayerRegistry.takesSettings(layer) else { return settings }
        guard layer is any CompositeLayer else { return SettingOverrides() }
        throw LookupFailure(
            status: .badRequest,
            message: "stack \(name) holds no heatmap to take \(settings.query): its layers draw as they are")
    }

    /// Why a tile cannot be asked for (a zoom not offered, off the grid), or `nil`.
    func offGrid(zoom: Int, x: Int, y: Int) -> String? {
        guard (options.minZoom...options.maxZoom).contains(zoom) else {
            return "zoom \(zoom) is outside \(options.minZoom)...\(options.maxZoom)"
        }
        let across = 1 << zoom
        guard x < across, y < across else {
            return "tile \(zoom)/\(x)/\(y) is outside the grid of zoom \(zoom) (x and y in 0...\(across - 1))"
        }
        return nil
    }

    /// The cached tile at once (if `accepting` takes it), or `produce` started once per key (or
    /// per `sharedAs`) however many requests ask for it at the same time (later ones wait for
    /// its result).
    func cachedOrShared(
        _ request: HTTPRequest, key: TileKey, route: Route, sharedAs: TileKey? = nil,
        accepting: (RenderedTile) -> Bool = { _ in true },
        produce: @escaping @Sendable (@escaping InFlightRenders.Waiter) -> Void
    ) -> HTTPReply {
        let shared = sharedAs ?? key
        if let cached = cache[key], accepting(cached) {
            metrics.cache(hit: true)
            return .response(decorate(tileResponse(cached, request: request, scale: key.scale), route: route))
        }
        metrics.cache(hit: false)
        return .deferred { [self] completion in
            let first = inFlight.join(shared) { [self] result in
                switch result {
                case .success(let tile):
                    completion(decorate(tileResponse(tile, request: request, scale: key.scale), route: route))
                case .failure(let failure): completion(decorate(failureResponse(failure), route: route))
                }
            }
            guard first else { return metrics.sharedRender() }
            produce { [self] result in inFlight.finish(shared, with: result) }
        }
    }

    /// 400, 500, or 503 with `Retry-After` for a tile not available yet.
    func failureResponse(_ failure: RenderFailure) -> HTTPResponse {
        switch failure.status {
        case 400: return .text(.badRequest, failure.message)
        case 503:
            var response = HTTPResponse.text(.serviceUnavailable, failure.message)
            response.headers.add("Retry-After", String(options.retryAfterSeconds))
            return response
        default: return .text(.internalServerError, failure.message)
        }
    }

    /// 200 with the PNG, 204 for no tile (or a transparent PNG of `scale` with `--empty-tile png`),
    /// 304 when `If-None-Match` has the tag.
    func tileResponse(_ tile: RenderedTile, request: HTTPRequest, scale: Int) -> HTTPResponse {
        var (png, etag) = (tile.png, tile.etag)
        if png == nil, options.emptyTile == .png, let empty = EmptyTile.transparentPNG(scale: scale) {
            (png, etag) = (empty.bytes, empty.etag)
        }
        var headers = HTTPHeaders([("ETag", etag), ("Cache-Control", options.tileCacheControl)])
        if ETag.matches(request.headers["If-None-Match"], etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        guard let png else { return HTTPResponse(status: .noContent, headers: headers) }
        headers.add("Content-Type", "image/png")
        return HTTPResponse(status: .ok, headers: headers, body: png)
    }

    static func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// The CPU time of the calling thread, seconds.
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}
