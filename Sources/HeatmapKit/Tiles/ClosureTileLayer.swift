import Synchronization

/// A layer whose tiles come from a closure, synchronous or asynchronous: your own layer in one
/// expression.
///
/// ```swift
/// let odd = ClosureTileLayer(name: "odd") { tile in tile.x % 2 == 1 ? .image(png) : .noTile }
/// let remote = ClosureTileLayer(name: "remote", async: { tile in try await fetch(tile) })
/// ```
///
/// It keeps no cache: ``clearTileCache()`` only advances ``cacheGeneration`` so that stacks
/// holding its tiles ask again.
public final class ClosureTileLayer: TileLayer {
    private enum Body: Sendable {
        case sync(@Sendable (TileRequest) throws -> TileResult)
        case async(@Sendable (TileRequest) async throws -> TileResult)
    }

    private let body: Body
    private let appearance: Mutex<LayerAppearance>
    private let generation = GenerationCounter()
    /// The layer's name, for errors and stacks.
    public let name: String
    /// The side of its images in pixels (256 or 512, say), at every scale.
    public let tileSize: Int
    /// The longest the synchronous request waits for an asynchronous closure, in seconds.
    public let synchronousTimeout: Double

    /// A layer computing its tiles on the caller's thread.
    public init(
        name: String = "closure", tileSize: Int = 256, zIndex: Int = 0, opacity: Double = 1,
        _ tileFor: @escaping @Sendable (TileRequest) throws -> TileResult
    ) {
        self.name = name
        self.tileSize = tileSize
        self.synchronousTimeout = 10
        body = .sync(tileFor)
        appearance = Mutex(LayerAppearance(zIndex: zIndex, opacity: opacity))
    }

    /// A layer answering later; its synchronous request waits at most `synchronousTimeout`
    /// seconds (default 10), then answers ``TileResult/notAvailableYet``.
    public init(
        name: String = "closure", tileSize: Int = 256, zIndex: Int = 0, opacity: Double = 1,
        synchronousTimeout: Double = 10, async tile: @escaping @Sendable (TileRequest) async throws -> TileResult
    ) {
        self.name = name
        self.tileSize = tileSize
        self.synchronousTimeout = synchronousTimeout
        body = .async(tile)
        appearance = Mutex(LayerAppearance(zIndex: zIndex, opacity: opacity))
    }

    /// The layer's place in a stack; may be changed at any time.
    public var zIndex: Int {
        get { appearance.withLock { $0.zIndex } }
        set { appearance.withLock { $0.zIndex = newValue } }
    }

    /// How opaque a stack draws the layer, 0...1; may be changed at any time.
    public var opacity: Double {
        get { appearance.withLock { $0.opacity } }
        set { appearance.withLock { $0.opacity = newValue } }
    }

    /// Advances on every ``clearTileCache()``.
    public var cacheGeneration: Int { generation.current }

    /// The closure's tile (an asynchronous one waited for, at most ``synchronousTimeout`` s).
    public func tileFor(_ tile: TileRequest) throws -> TileResult {
        switch body {
        case .sync(let tileFor): return try tileFor(tile)
        case .async(let request): return try waitForTile(timeout: synchronousTimeout) { try await request(tile) }
        }
    }

    /// The closure's tile (a synchronous one run off the caller's thread).
    public func tile(_ tile: TileRequest) async throws -> TileResult {
        switch body {
        case .sync: return try await SyncAdapter(layer: self).tile(tile)
        case .async(let request): return try await request(tile)
        }
    }

    /// Nothing is cached here; stacks that include the layer drop their tiles.
    public func clearTileCache() { generation.advance() }
}

/// Runs a layer's synchronous request through ``SyncTileLayer``'s asynchronous one.
private struct SyncAdapter: SyncTileLayer {
    let layer: ClosureTileLayer
    func tileFor(_ tile: TileRequest) throws -> TileResult { try layer.tileFor(tile) }
}
