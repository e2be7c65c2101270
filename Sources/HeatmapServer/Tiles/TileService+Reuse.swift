extension TileService: ReusingResponder {
    /// A heatmap layer's tile answered from the shared cache (200 or 204) may be kept by the
    /// event loop that asked, stamped with the layer's ``LiveTileLayer/answers`` read before the
    /// lookup: any change of the layer's data (points posted or deleted, a table's change, a
    /// reload) advances it with the generation, so no loop gives a tile that the shared path
    /// would no longer give. Pre-rendered, hosted and stacked layers are not kept.
    package func respond(to request: HTTPRequest, reuse: inout ReuseStamp?) -> HTTPReply {
        guard options.cacheBytes > 0, case .tile(let name, _, _, _, _) = Route(path: request.path),
            let layer = registry.byName[name]?.itself
        else { return respond(to: request) }
        let stamp = layer.answers.value
        let reply = respond(to: request)
        guard case .response(let response) = reply, response.status == .ok || response.status == .noContent else {
            return reply
        }
        let status = response.status.code
        reuse = ReuseStamp(version: layer.answers, stamp: stamp) { [metrics] in
            metrics.cache(hit: true)
            metrics.request(route: "tile", status: status)
        }
        return reply
    }

    /// An eighth of the shared cache, at most 16 MiB: the bodies are mostly the shared
    /// cache's own storage, not copies.
    package var reuseBytesPerLoop: Int { min(options.cacheBytes / 8, 16 << 20) }
}
