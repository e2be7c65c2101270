import HeatmapKit

extension TileService {
    /// The widest and tallest static image, in points (at `@2x`, twice as many pixels).
    package static let maximumStaticPoints = 1280

    /// `/static/{layer-or-stack}/{lon},{lat},{zoom}/{width}x{height}[@2x].png`: the library's
    /// static image (``TileLayer/image(_:)``) of the layer, drawn from its tiles; 503 with
    /// `Retry-After` when a tile is not available yet. With `step=` an animation
    /// (TileService+Animation.swift).
    func staticImage(_ request: HTTPRequest, name: String, viewport: Viewport) -> HTTPReply {
        let route = Route.staticImage(layer: name, viewport: viewport)
        let limit = Self.maximumStaticPoints
        guard (1...limit).contains(viewport.width), (1...limit).contains(viewport.height) else {
            let size = "\(viewport.width)x\(viewport.height)"
            return finish(.text(.badRequest, "size \(size) is beyond \(limit)x\(limit) points"), route: route)
        }
        guard (options.minZoom...options.maxZoom).contains(viewport.zoom) else {
            let zooms = "\(options.minZoom)...\(options.maxZoom)"
            return finish(.text(.badRequest, "zoom \(viewport.zoom) is outside \(zooms)"), route: route)
        }
        do {
            try viewport.validate()
        } catch {
            return finish(.text(.badRequest, error.description), route: route)
        }
        if Self.asksForAnimation(request) {
            return staticAnimation(request, name: name, viewport: viewport, route: route)
        }
        var layer: any TileLayer
        switch registry.entry(named: name) {
        case .success(let found): layer = found.layer
        case .failure(let failure): return finish(.text(failure.status, failure.message), route: route)
        }
        // The tile settings and filters of the query, as the layer's tiles take them (400 naming a bad one).
        do {
            let settings = try requestSettings(request, for: layer, name: name)
            if !settings.isEmpty, let taking = layer as? any SettingsTakingLayer { layer = taking.taking(settings) }
        } catch {
            return finish(.text(error.status, error.message), route: route)
        }
        let drawn = layer
        let pixels = viewport.pixelWidth * viewport.pixelHeight
        if let reason = staticImages.admit(pixels) { return finish(busyResponse(reason), route: route) }
        return .deferred { [self] completion in
            Task(executorPreference: DispatchTaskExecutor.shared) { [self] in
                let response = await draw(drawn, name: name, viewport, request)
                staticImages.release(pixels)
                completion(decorate(response, route: route))
            }
        }
    }

    private func draw(_ layer: any TileLayer, name: String, _ viewport: Viewport, _ request: HTTPRequest) async
        -> HTTPResponse
    {
        do {
            guard let image = try await layer.image(viewport) else {
                return failureResponse(
                    RenderFailure(status: 503, message: "layer \(name): a tile is not available yet; ask again"))
            }
            return tileResponse(
                RenderedTile(.image(try PNGEncoder().encode(image))), request: request, scale: viewport.scale)
        } catch {
            metrics.renderFailed()
            if let failure = sourceFailure(error, layer: name) { return failureResponse(failure) }
            return .text(.internalServerError, "\(error)")
        }
    }
}
