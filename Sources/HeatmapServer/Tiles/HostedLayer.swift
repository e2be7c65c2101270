import HeatmapKit

/// A layer the server hosts as it is: any ``TileLayer`` (a ``URLTileLayer``, a ``TileStack``,
/// your own ``SyncTileLayer`` or ``AsyncTileLayer``), on the same routes, cache, ETags and
/// metrics as the heatmaps. Its tiles are asked for with `await layer.tile(_:)`; "no tile" is
/// 204, "not available yet" 503 with `Retry-After`.
///
/// ```swift
/// let odd = HostedLayer(name: "odd", layer: TestTileLayer(australia: png))
/// let service = try TileService(layers: [], hosted: [odd])  // /odd/{z}/{x}/{y}.png
/// ```
public struct HostedLayer: Sendable {
    /// The name in URLs.
    public let name: String
    /// The layer answering the tiles.
    public let layer: any TileLayer
    /// What TileJSON says the layer is.
    public var description: String

    /// Hosts `layer` under `name`.
    ///
    /// - Throws: ``OverrideError`` for a name unfit for URLs.
    public init(name: String, layer: any TileLayer, description: String = "") throws(OverrideError) {
        guard ServedLayer.isValidName(name) else {
            throw OverrideError(
                "layer name \"\(name)\" must be 1-64 letters, digits, '-', '_' or '.', not starting with '.'")
        }
        self.name = name
        self.layer = layer
        self.description = description
    }
}

/// A named stack of layers the server hosts, bottom first: `{"name": "crime_map", "layers":
/// ["osm", "crimes"]}` in the configuration file.
public struct StackDefinition: Sendable, Hashable, Decodable {
    /// The stack's name in URLs.
    public var name: String
    /// The names of its layers (any hosted layer or heatmap, or another stack defined before it),
    /// bottom first.
    public var layers: [String]

    /// A stack of `layers`, bottom first.
    public init(name: String, layers: [String]) {
        self.name = name
        self.layers = layers
    }
}
