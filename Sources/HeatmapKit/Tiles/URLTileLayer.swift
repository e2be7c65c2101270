import Foundation
import Synchronization

/// Tiles from URLs, as Google's `GMSURLTileLayer(urlConstructor:)`: a closure gives each tile's
/// URL, or `nil` for "no tile".
///
/// - `file://` URLs are read from disk: a missing file is ``TileResult/noTile``; a file that
///   cannot be read or is not a PNG of the layer's size is an error naming the layer and path.
/// - `http://` and `https://` URLs are fetched (URLSession; libcurl in the `heatmap` command on
///   Linux) with a timeout (default 10 s), at most `maximumRequestsPerHost` requests in flight
///   per host (default 6; later requests wait their turn within the same timeout). 204 and 404
///   are ``TileResult/noTile``; errors, timeouts, redirects (never followed), other statuses
///   (5xx, 429, …), bodies beyond `maximumTileBytes` (the transfer stops there) and bodies
///   that are not PNG are ``TileResult/notAvailableYet``; a PNG of the wrong size is an error
///   naming the layer.
/// - Images and "no tile" answers are cached (least recently used out, `cacheBytes`);
///   "not available yet" never is. Requests for a tile being fetched wait for that fetch.
///
/// ```swift
/// let osm = URLTileLayer(name: "osm") { x, y, zoom in
///     URL(string: "https://tile.openstreetmap.org/\(zoom)/\(x)/\(y).png")
/// }
/// ```
public final class URLTileLayer: TileLayer {
    /// Gives a tile's URL from x, y and zoom, or `nil` for "no tile".
    public typealias URLConstructor = @Sendable (_ x: Int, _ y: Int, _ zoom: Int) -> URL?

    /// The fetches under way, by URL.
    private struct Fetches {
        var tasks: [URL: (id: Int, task: Task<TileResult, any Error>)] = [:]
        var next = 0
    }

    private struct Key: Hashable, Sendable {
        var x: Int
        var y: Int
        var zoom: Int
    }

    /// The layer's name, for errors and stacks.
    public let name: String
    /// The side of its images in pixels, 256 (default) or 512 for high-DPI tiles.
    public let tileSize: Int
    /// The longest one tile may take, waiting for a slot included, in seconds.
    package let timeout: Double
    /// The most requests in flight to one host.
    package var maximumRequestsPerHost: Int { slots.limit }
    /// The most memory cached tiles may use.
    package var cacheBytes: Int { cache.capacityBytes }
    /// The largest file or response body read, in bytes (default 16 MiB): a response that
    /// announces or grows beyond it is cut off (not available yet), a larger file is an error.
    package let maximumTileBytes: Int

    private let urlConstructor: URLConstructor
    private let appearance: Mutex<LayerAppearance>
    private let generation = GenerationCounter()
    private let cache: TileCache<Key, TileResult>
    private let fetches = Mutex(Fetches())
    let slots: RequestSlots
    let fetcher: any TileFetching

    /// A layer whose tile URLs come from `urlConstructor`.
    ///
    /// - Parameters:
    ///   - name: the layer's name in errors (default `url`).
    ///   - tileSize: the side of its images in pixels, 256 or 512 for high-DPI tiles (default 256).
    ///   - zIndex: the layer's place in a ``TileStack`` (default 0).
    ///   - opacity: 0...1 (default 1).
    ///   - urlConstructor: the URL of a tile's column, row and zoom, or `nil` for no tile.
    ///   - timeout: seconds for one tile, waiting for a slot included (default 10).
    ///   - maximumRequestsPerHost: requests in flight per host (default 6, as browsers).
    ///   - cacheBytes: memory for cached tiles (default 64 MiB; 0 for none).
    ///   - maximumTileBytes: the largest file or body read (default 16 MiB).
    public convenience init(
        name: String = "url", tileSize: Int = 256, zIndex: Int = 0, opacity: Double = 1, timeout: Double = 10,
        maximumRequestsPerHost: Int = 6, cacheBytes: Int = 64 << 20, maximumTileBytes: Int = 16 << 20,
        urlConstructor: @escaping URLConstructor
    ) {
        self.init(
            name: name, tileSize: tileSize, zIndex: zIndex, opacity: opacity, timeout: timeout,
            maximumRequestsPerHost: maximumRequestsPerHost, cacheBytes: cacheBytes, maximumTileBytes: maximumTileBytes,
            fetcher: nil, urlConstructor: urlConstructor)
    }

    /// A layer whose `http(s)` tiles come through `fetcher` (`nil`: a URLSession of its own).
    package init(
        name: String, tileSize: Int, zIndex: Int, opacity: Double, timeout: Double, maximumRequestsPerHost: Int,
        cacheBytes: Int, maximumTileBytes: Int, fetcher: (any TileFetching)?, urlConstructor: @escaping URLConstructor
    ) {
        self.maximumTileBytes = min(max(maximumTileBytes, 64), 1 << 30)
        self.name = name
        self.tileSize = tileSize
        self.timeout = timeout.isFinite && timeout > 0 ? min(timeout, 3600) : 10
        self.urlConstructor = urlConstructor
        appearance = Mutex(LayerAppearance(zIndex: zIndex, opacity: opacity))
        cache = TileCache(capacityBytes: cacheBytes)
        slots = RequestSlots(limit: maximumRequestsPerHost)
        self.fetcher =
            fetcher
            ?? URLSessionTileFetcher(
                timeout: self.timeout, maximumConnectionsPerHost: slots.limit, maximumBytes: self.maximumTileBytes)
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

    /// Drops the cached tiles; the next requests read and fetch afresh.
    public func clearTileCache() {
        generation.advance()
        cache.removeAll()
    }

    /// The tile: a file read on the caller's thread, a fetch waited for (at most `timeout`
    /// seconds and a little), blocking the caller; from a task, `await tile(_:)` instead.
    public func tileFor(_ request: TileRequest) throws -> TileResult {
        try request.validate()
        let key = Key(x: request.x, y: request.y, zoom: request.zoom)
        if let cached = cache[key] { return cached }
        let seen = generation.current
        guard let url = try url(for: request) else { return .noTile }
        if url.isFileURL { return remember(try readFile(url), for: key, generation: seen) }
        return try waitForTile(timeout: timeout + 1) { try await self.tile(request) }
    }

    /// The tile: a file read, or a fetch of at most `timeout` seconds.
    public func tile(_ request: TileRequest) async throws -> TileResult {
        try request.validate()
        let key = Key(x: request.x, y: request.y, zoom: request.zoom)
        if let cached = cache[key] { return cached }
        let seen = generation.current
        guard let url = try url(for: request) else { return .noTile }
        if url.isFileURL { return remember(try readFile(url), for: key, generation: seen) }
        return remember(try await sharedFetch(url), for: key, generation: seen)
    }

    /// One fetch of `url` however many ask for it at once: later callers wait for the first one's.
    private func sharedFetch(_ url: URL) async throws -> TileResult {
        let task = fetches.withLock { running -> Task<TileResult, any Error> in
            if let (_, task) = running.tasks[url] { return task }
            let id = running.next
            running.next &+= 1
            // Made under the lock, so it cannot finish before it is listed.
            // On dispatch threads: a pool held by blocking work must not stall every fetch.
            let task = Task<TileResult, any Error>(executorPreference: DispatchTaskExecutor.shared) {
                defer { self.fetches.withLock { if $0.tasks[url]?.id == id { $0.tasks[url] = nil } } }
                return try await self.fetch(url)
            }
            running.tasks[url] = (id, task)
            return task
        }
        return try await task.value
    }

    /// The tile's URL, `nil` for no tile.
    ///
    /// - Throws: ``TileLayerError/invalidLayer(_:)`` for a scheme other than file, http and https.
    private func url(for request: TileRequest) throws(TileLayerError) -> URL? {
        guard let url = urlConstructor(request.x, request.y, request.zoom) else { return nil }
        guard url.isFileURL || ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw .invalidLayer("layer \(name): \(url.absoluteString) is not a file, http or https URL")
        }
        return url
    }

    /// Caches what stays true (images, no tile) unless the cache was cleared since `generation`.
    private func remember(_ result: TileResult, for key: Key, generation seen: Int) -> TileResult {
        if result != .notAvailableYet, generation.current == seen { cache.insert(result, for: key) }
        return result
    }
}
