/// A source of map tiles, as Google's `GMSTileLayer`: the heatmap (``HeatmapTileLayer``), tiles
/// from URLs (``URLTileLayer``), your own (``SyncTileLayer``, ``AsyncTileLayer``,
/// ``ClosureTileLayer``) and stacks of them (``TileStack``).
///
/// A request answers ``TileResult/image(_:)`` (PNG bytes, straight alpha, `imageSize(scale:)`
/// pixels square), ``TileResult/noTile`` (nothing here, Google's `kGMSTileLayerNoTile`) or
/// ``TileResult/notAvailableYet`` (ask again later, Google's `nil`). Everything but the two
/// requests has a default, so a layer of your own is a few lines:
///
/// ```swift
/// struct TestTileLayer: SyncTileLayer {
///     let australia: [UInt8]  // a 256 px PNG
///     func tileFor(_ tile: TileRequest) -> TileResult {
///         tile.x % 2 == 1 ? .image(australia) : .noTile  // on every odd tile, an image
///     }
/// }
/// ```
public protocol TileLayer: Sendable {
    /// The name errors and stacks use for the layer. Default: the type's name.
    var name: String { get }
    /// Google's `tileSize`: the side in pixels of the layer's images at scale 1, 256 (the default)
    /// or 512 for layers whose images are high-DPI.
    var tileSize: Int { get }
    /// The layer's place in a stack: higher is drawn over lower; equal values keep the stack's
    /// order. Default 0.
    var zIndex: Int { get }
    /// How opaque the layer is drawn, 0...1; a stack multiplies every pixel's alpha by it.
    /// Default 1.
    var opacity: Double { get }
    /// Whether the layer's images already carry ``opacity`` (the heatmap's colour map applies
    /// it), so that a stack must not apply it again. Default `false`.
    var imagesIncludeOpacity: Bool { get }
    /// A number that changes whenever the layer's tiles may have changed (its cache cleared,
    /// new data), so that stacks holding its tiles drop theirs. Default 0: never changes.
    var cacheGeneration: Int { get }
    /// The side in pixels of the images answered at `scale`. Default ``tileSize`` at every scale
    /// (fixed images, as Google's layers); the heatmap draws at any scale: `256 × scale`.
    func imageSize(scale: Int) -> Int
    /// The tile, computed on the caller's thread (Google's `GMSSyncTileLayer.tileForX:y:zoom:`).
    func tileFor(_ tile: TileRequest) throws -> TileResult
    /// The tile, answered later (Google's `requestTileForX:y:zoom:receiver:`).
    func tile(_ tile: TileRequest) async throws -> TileResult
    /// Drops the layer's cached tiles so that the next requests ask afresh; stacks that include
    /// the layer drop theirs too (through ``cacheGeneration``). Default: nothing to drop.
    func clearTileCache()
}

extension TileLayer {
    /// The type's name.
    public var name: String { String(describing: Self.self) }
    /// 256 pixels.
    public var tileSize: Int { 256 }
    /// 0.
    public var zIndex: Int { 0 }
    /// 1, fully opaque.
    public var opacity: Double { 1 }
    /// `false`: stacks apply ``opacity``.
    public var imagesIncludeOpacity: Bool { false }
    /// 0: the layer keeps no cache of its own.
    public var cacheGeneration: Int { 0 }
    /// ``tileSize`` at every scale.
    public func imageSize(scale: Int) -> Int { tileSize }
    /// Nothing to drop.
    public func clearTileCache() {}
}
