import HeatmapKit

/// A layer the server hosts as it is: any ``TileLayer`` (a ``URLTileLayer``, your own
/// ``SyncTileLayer`` or ``AsyncTileLayer``) under a name of the server's, on the same routes,
/// cache, ETags and metrics as the heatmaps. Its tiles are asked for with `await
/// layer.tile(_:)`; "no tile" is 204, "not available yet" 503 with `Retry-After`.
///
/// ```swift
/// let odd = try HostedLayer(name: "odd", layer: TestTileLayer(australia: png))
/// let service = try TileService(serving: [odd])  // /odd/{z}/{x}/{y}.png
/// ```
package struct HostedLayer: TileLayer, TileJSONLayer {
    /// The name in URLs.
    package let name: String
    /// The layer answering the tiles.
    package let layer: any TileLayer
    /// What TileJSON says the layer is.
    package var description: String

    /// Hosts `layer` under `name`.
    ///
    /// - Throws: ``OverrideError`` for a name unfit for URLs.
    package init(name: String, layer: any TileLayer, description: String = "") throws(OverrideError) {
        guard ServedLayer.isValidName(name) else {
            throw OverrideError(
                "layer name \"\(name)\" must be 1-64 letters, digits, '-', '_' or '.', not starting with '.'")
        }
        self.name = name
        self.layer = layer
        self.description = description
    }

    /// The hosted layer's.
    package var tileSize: Int { layer.tileSize }
    /// The hosted layer's.
    package var zIndex: Int { layer.zIndex }
    /// The hosted layer's.
    package var opacity: Double { layer.opacity }
    /// The hosted layer's.
    package var imagesIncludeOpacity: Bool { layer.imagesIncludeOpacity }
    /// The hosted layer's.
    package var cacheGeneration: Int { layer.cacheGeneration }
    /// The hosted layer's.
    package func imageSize(scale: Int) -> Int { layer.imageSize(scale: scale) }
    /// The hosted layer's tile.
    package func tileFor(_ tile: TileRequest) throws -> TileResult { try layer.tileFor(tile) }
    /// The hosted layer's tile.
    package func tile(_ tile: TileRequest) async throws -> TileResult { try await layer.tile(tile) }
    /// Clears the hosted layer's cache.
    package func clearTileCache() { layer.clearTileCache() }

    /// Every zoom offered, the whole world, with its description.
    func tileJSON(base: String, settings: SettingOverrides, scale: Int, options: ServerOptions)
        throws(TileService.LookupFailure) -> TileJSON
    {
        TileJSON(
            tilejson: "3.0.0", name: name, description: description, attribution: options.attribution,
            scheme: "xyz", tiles: ["\(base)/\(name)/{z}/{x}/{y}.png"], tileSize: tileSize,
            minzoom: options.minZoom, maxzoom: options.maxZoom, bounds: [-180, -85.0511, 180, 85.0511],
            center: [0, 0, 1], points: 0, radius: 0, opacity: opacity)
    }
}

/// A named stack of layers the server hosts, bottom first: `{"name": "crime_map", "layers":
/// ["osm", "crimes"]}` in the configuration file.
package struct StackDefinition: Sendable, Hashable, Decodable {
    /// The stack's name in URLs.
    package var name: String
    /// The names of its layers (any hosted layer or heatmap, or another stack defined before it),
    /// bottom first.
    package var layers: [String]

    /// A stack of `layers`, bottom first.
    package init(name: String, layers: [String]) {
        self.name = name
        self.layers = layers
    }
}
