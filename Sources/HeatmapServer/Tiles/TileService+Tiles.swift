import HeatmapKit

extension TileService {
    /// A tile: from the cache at once, or rendered once per key off the I/O thread.
    func tile(_ request: HTTPRequest, layer: ServedLayer, zoom: Int, x: Int, y: Int, scale: Int) -> HTTPReply {
        let route = Route.tile(layer: layer.name, zoom: zoom, x: x, y: y, scale: scale)
        if let reason = offGrid(zoom: zoom, x: x, y: y) { return finish(.text(.badRequest, reason), route: route) }
        let overrides: TileOverrides
        do {
            overrides = try TileOverrides(query: request.queryItems)
        } catch {
            return finish(.text(.badRequest, error.description), route: route)
        }
        let settings = overrides.applied(to: layer.settings)
        // Keyed by the reload epoch: a live change drops only the tiles it reaches, and a tile
        // drawn before it stands only while its zoom's M(z) is unchanged.
        let (generation, epoch) = layer.cacheStamp
        let key = TileKey(
            layer: layer.name, generation: epoch, settings: settings, zoom: zoom, x: x, y: y, scale: scale)
        // Renders are shared per generation: a request after a change never waits for one begun before it.
        var shared = key
        shared.generation = generation
        let current: (RenderedTile) -> Bool = { [self] in
            layer.stands($0, key: key, at: generation, waiting: false, in: cache)
        }
        return cachedOrShared(request, key: key, route: route, sharedAs: shared, accepting: current) {
            [self] done in
            // A percentile not known yet: a bounded search, waited for off the render pool.
            if settings.maximumPercentile != nil,
                layer.layer.needsPercentileSearch(zoom: zoom, scale: scale, settings: settings)
            {
                return searchThenRender(layer: layer, key: key, done: done)
            }
            let work: @Sendable () -> Void = { [self] in done(render(layer: layer, key: key)) }
            if layer.current.data.source == nil { renderPool.async(work) } else { renderQueue.async(execute: work) }
        }
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

    /// Draws a tile (or takes it from the cache, if a render finished since the lookup).
    func render(layer: ServedLayer, key: TileKey) -> Result<RenderedTile, RenderFailure> {
        // The generation first: a tile cached or drawn after it is at least as new.
        var generation = layer.cacheStamp.generation
        if let cached = cache[key], layer.stands(cached, key: key, at: generation, waiting: true, in: cache) {
            return .success(cached)
        }
        let start = Self.seconds()
        let startCPU = Self.threadCPUSeconds()
        let drawn: DrawnTile
        do {
            (drawn, generation) = try drawFollowingSwaps(layer: layer, key: key, generation: generation)
        } catch {
            metrics.renderFailed()
            switch error {
            case .tileOutOfRange, .invalidMean, .invalidGroundRadius:
                return .failure(RenderFailure(status: 400, message: error.description))
            default: break
            }
            // The data's source (a database) is down or too slow: try again later. The client
            // gets a plain sentence; the detail (host, user, SQL) goes to the log, once an episode.
            if let failure = sourceFailure(error, layer: layer.name) {
                if case .sourceTimedOut = error {
                    metrics.sourceFailed(timeout: true)
                } else {
                    metrics.sourceFailed(timeout: false)
                }
                return .failure(failure)
            }
            return .failure(RenderFailure(status: 500, message: error.description))
        }
        let tile = RenderedTile(drawn.result, normalization: drawn.normalization, drawnAt: generation)
        sourceAnswered(layer.name)
        metrics.rendered(seconds: Self.seconds() - start, cpuSeconds: Self.threadCPUSeconds() - startCPU)
        layer.insert(tile, for: key, drawnAt: generation, into: cache)
        return .success(tile)
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
