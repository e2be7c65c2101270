import HeatmapKit

/// A heatmap drawn with one request's settings, as a member of a stack: the query parameters
/// of a stack's URL reach its heatmaps through it.
struct OverriddenHeatmap: SyncTileLayer {
    let layer: HeatmapTileLayer
    let settings: HeatmapSettings
    /// The member's name in the stack, for errors.
    let name: String

    var zIndex: Int { layer.zIndex }
    var imagesIncludeOpacity: Bool { true }
    var cacheGeneration: Int { layer.cacheGeneration }
    func imageSize(scale: Int) -> Int { layer.tileSize * scale }

    /// The heatmap's tile with these settings; settings its data cannot draw (the mean of a
    /// layer without values, metres without a latitude) are the request's fault.
    func tileFor(_ tile: TileRequest) throws -> TileResult {
        do {
            return try layer.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale, settings: settings)
        } catch {
            switch error {
            case .invalidMean, .invalidGroundRadius, .tileOutOfRange:
                throw TileLayerError.invalidRequest("layer \(name): \(error.description)")
            default: throw error
            }
        }
    }
}

extension TileService {
    /// The layer names of a stack: a named stack's, or those of `a+b+…`; `nil` for a name that
    /// is not a stack.
    func stackMembers(_ name: String) -> [String]? {
        if let stack = stacks.first(where: { $0.name == name }) { return stack.layers }
        guard byName[name] == nil, tileLayers[name] == nil else { return nil }
        let parts = name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        return parts.count > 1 ? parts : nil
    }

    /// A stack's tiles with the request's query parameters (``TileOverrides``): every one of
    /// them applies to each heatmap of the stack (of nested stacks too), over that heatmap's
    /// own settings; pre-rendered and URL layers draw as they are. `nil` when the query has
    /// none of them or `name` is not a stack; the stack and its cache name (`name?query`).
    ///
    /// - Throws: ``LookupFailure`` (400) for a parameter that does not parse, or for any when
    ///   the stack holds no heatmap to take it.
    func overriddenStack(_ request: HTTPRequest, name: String) throws(LookupFailure) -> (any TileLayer, String)? {
        guard stackMembers(name) != nil, !request.queryItems.isEmpty else { return nil }
        let overrides: TileOverrides
        do {
            overrides = try TileOverrides(query: request.queryItems)
        } catch {
            throw LookupFailure(status: .badRequest, message: error.description)
        }
        guard !overrides.isEmpty else { return nil }
        var heatmaps = 0
        let stack = try overridden(name, overrides: overrides, heatmaps: &heatmaps, depth: 0)
        guard heatmaps > 0 else {
            throw LookupFailure(
                status: .badRequest,
                message: "stack \(name) holds no heatmap to take \(overrides.query): its layers draw as they are")
        }
        return (stack, name + "?" + overrides.query)
    }

    private func overridden(_ name: String, overrides: TileOverrides, heatmaps: inout Int, depth: Int)
        throws(LookupFailure) -> any TileLayer
    {
        if let served = byName[name] {
            heatmaps += 1
            return OverriddenHeatmap(layer: served.layer, settings: overrides.applied(to: served.settings), name: name)
        }
        guard depth < Self.maximumStackMembers, let members = stackMembers(name) else {
            guard let layer = tileLayers[name] else {
                throw LookupFailure(status: .notFound, message: "no layer \(name)")
            }
            return layer
        }
        var layers: [any TileLayer] = []
        for member in members {
            layers.append(try overridden(member, overrides: overrides, heatmaps: &heatmaps, depth: depth + 1))
        }
        return TileStack(layers, name: name, cacheBytes: 0)
    }
}
