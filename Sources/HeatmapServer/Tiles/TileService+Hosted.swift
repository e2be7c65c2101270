import HeatmapKit

extension TileService {
    /// The most layers in an ad-hoc stack `/{a}+{b}+…/`.
    static let maximumStackMembers = 16

    /// A layer that could not be found (404) or a stack too tall (400).
    struct LookupFailure: Error {
        var status: HTTPStatus
        var message: String
    }

    /// The ``TileLayer`` behind a name: a heatmap (with its own settings), a pre-rendered,
    /// hosted or stacked layer, or `a+b+…`, an ad-hoc stack of those (b over a).
    func tileLayer(named name: String) -> Result<any TileLayer, LookupFailure> {
        if let layer = byName[name]?.layer ?? tileLayers[name] { return .success(layer) }
        let parts = name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return .failure(LookupFailure(status: .notFound, message: "no layer \(name)")) }
        guard parts.count <= Self.maximumStackMembers else {
            return .failure(
                LookupFailure(
                    status: .badRequest, message: "a stack has at most \(Self.maximumStackMembers) layers"))
        }
        var members: [any TileLayer] = []
        for part in parts {
            guard let layer = byName[part]?.layer ?? tileLayers[part] else {
                return .failure(LookupFailure(status: .notFound, message: "no layer \(part)"))
            }
            members.append(layer)
        }
        return .success(TileStack(members, name: name, cacheBytes: 0))
    }

    /// A tile of any ``TileLayer``: from the shared cache, or asked for once per key with
    /// `await layer.tile(_:)`; 204 for no tile, 503 with `Retry-After` for not available yet.
    func hostedTile(
        _ request: HTTPRequest, name: String, layer given: any TileLayer, zoom: Int, x: Int, y: Int, scale: Int
    ) -> HTTPReply {
        let route = Route.tile(layer: name, zoom: zoom, x: x, y: y, scale: scale)
        if let reason = offGrid(zoom: zoom, x: x, y: y) { return finish(.text(.badRequest, reason), route: route) }
        // A stack's query parameters reach its heatmaps (TileService+StackOverrides.swift).
        let layer: any TileLayer
        let cacheName: String
        do {
            (layer, cacheName) = try overriddenStack(request, name: name) ?? (given, name)
        } catch {
            return finish(.text(error.status, error.message), route: route)
        }
        let key = TileKey(
            layer: cacheName, generation: layer.cacheGeneration, settings: .default, zoom: zoom, x: x, y: y,
            scale: scale)
        return cachedOrShared(request, key: key, route: route) { [self] done in
            Task(executorPreference: DispatchTaskExecutor.shared) { [self] in done(await ask(layer, key: key)) }
        }
    }

    /// Asks a layer for a tile (or takes it from the cache, if an answer came since the lookup);
    /// only images and "no tile" are cached.
    private func ask(_ layer: any TileLayer, key: TileKey) async -> Result<RenderedTile, RenderFailure> {
        if let cached = cache[key] { return .success(cached) }
        let start = Self.seconds()
        let result: TileResult
        do {
            result = try await layer.tile(TileRequest(x: key.x, y: key.y, zoom: key.zoom, scale: key.scale))
        } catch {
            metrics.renderFailed()
            if case .invalidRequest(let reason) = error as? TileLayerError {
                return .failure(RenderFailure(status: 400, message: reason))
            }
            if let failure = sourceFailure(error, layer: key.layer) { return .failure(failure) }
            return .failure(RenderFailure(status: 500, message: "\(error)"))
        }
        guard result != .notAvailableYet else {
            return .failure(
                RenderFailure(
                    status: 503,
                    message: "layer \(key.layer): tile \(key.zoom)/\(key.x)/\(key.y) is not available yet; ask again"))
        }
        let tile = RenderedTile(result)
        sourceAnswered(key.layer)
        metrics.rendered(seconds: Self.seconds() - start)
        if layer.cacheGeneration == key.generation { cache.insert(tile, for: key) }
        return .success(tile)
    }

    /// TileJSON of a hosted layer or a named stack: every zoom offered, the whole world.
    func hostedDocument(_ name: String, base: String) -> TileJSON {
        let description =
            hosted.first { $0.name == name }?.description
            ?? stacks.first { $0.name == name }.map { "Stack of " + $0.layers.joined(separator: ", ") } ?? ""
        return TileJSON(
            tilejson: "3.0.0", name: name, description: description, attribution: options.attribution, scheme: "xyz",
            tiles: ["\(base)/\(name)/{z}/{x}/{y}.png"], tileSize: tileLayers[name]?.tileSize ?? 256,
            minzoom: options.minZoom, maxzoom: options.maxZoom,
            bounds: [-180, -85.0511, 180, 85.0511], center: [0, 0, 1], points: 0, radius: 0,
            opacity: tileLayers[name]?.opacity ?? 1)
    }
}
