import HeatmapCore
import Synchronization

/// A heatmap as map tiles, the Swift counterpart of Google's `GMUHeatmapTileLayer`.
///
/// Set ``weightedData`` and, if you like, ``radius``, ``gradient`` and ``opacity``; then ask
/// for tiles in the XYZ scheme with ``tileFor(x:y:zoom:scale:settings:)`` (synchronous),
/// ``tile(x:y:zoom:scale:settings:)`` (asynchronous) or ``tileIfReady(x:y:zoom:scale:settings:)`` (never
/// waits). Every change takes effect on the next tile; no reset is needed.
///
/// Thread-safe: any number of threads may ask for tiles while another changes the data or
/// the settings; each tile is drawn wholly from one version of them.
///
/// ```swift
/// let layer = HeatmapTileLayer()
/// layer.weightedData = [WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9))]
/// if case .image(let png) = try layer.tileFor(x: 924, y: 628, zoom: 10) { ... }
/// ```
public final class HeatmapTileLayer: Sendable {
    struct State {
        var data: DataSet
        var settings: HeatmapSettings
        var generation: Int
        /// What cached tiles are keyed by: advanced with ``generation`` by every change but
        /// live appends and removals, which drop only the tiles they reach.
        var cacheEpoch = 0
        var colorMaps: [ColorMapKey: ColorMap] = [:]
    }

    struct ColorMapKey: Hashable {
        var gradient: Gradient
        var opacity: Double
        var scale: ColorScale = .linear
    }

    struct TileKey: Hashable, Sendable, CacheCost {
        var generation: Int
        var settings: HeatmapSettings
        var zoom: Int
        var x: Int
        var y: Int
        var scale: Int

        var cacheCost: Int { settings.cacheCost }
    }

    let state: Mutex<State>
    let cache: TileCache<TileKey, CachedTile>
    /// Tiles drawn rather than taken from the cache (see HeatmapTileLayer+Live.swift).
    let drawnTiles = Atomic<Int>(0)
    /// ``zIndex`` (see HeatmapTileLayer+TileLayer.swift).
    let tileLayerZIndex = Atomic<Int>(0)

    /// The side of a tile in points, 256; a tile at scale s is `256 * s` pixels.
    public let tileSize = 256

    /// Creates a layer with Google's defaults (radius 20, the default gradient, opacity 0.7).
    ///
    /// - Parameters:
    ///   - weightedData: the points (default none: set ``weightedData`` later).
    ///   - settings: every setting at once (default Google's).
    ///   - cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    public init(weightedData: [WeightedLatLng] = [], settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20) {
        state = Mutex(State(data: DataSet(points: weightedData), settings: settings, generation: 0))
        cache = TileCache(capacityBytes: cacheBytes)
    }

    /// Creates a layer over an index built already, for example by a points reader.
    ///
    /// - Parameters:
    ///   - index: the points, indexed.
    ///   - settings: every setting at once (default Google's).
    ///   - cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    package init(index: PointIndex, settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20) {
        state = Mutex(State(data: DataSet(index: index), settings: settings, generation: 0))
        cache = TileCache(capacityBytes: cacheBytes)
    }

    /// Creates a layer that draws from another source of pixel weights (a database, say):
    /// the same tiles, cache, settings and M(z) per zoom as from points. The source's
    /// failures make tile requests throw ``HeatmapError/sourceFailed(_:)``.
    ///
    /// - Parameters:
    ///   - source: answers the weight of every occupied pixel of a rectangle.
    ///   - settings: every setting at once (default Google's).
    ///   - cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    package init(source: some WeightSource, settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20) {
        state = Mutex(
            State(data: DataSet(source: ExternalSource(source)), settings: settings, generation: 0))
        cache = TileCache(capacityBytes: cacheBytes)
    }

    /// Replaces the source, atomically, as ``replaceData(with:)`` does (its data changed, say):
    /// the cached tiles and M(z) values are dropped.
    package func replaceSource(with source: some WeightSource) {
        update { $0.data = DataSet(source: ExternalSource(source)) }
    }

    /// Replaces the data with an index built already, atomically: requests under way finish
    /// on the old data, the next ones see the new; the tile cache is dropped.
    package func replaceData(with index: PointIndex) {
        update { $0.data = DataSet(index: index) }
    }

    /// Changes the state and drops the cached tiles, which no longer apply.
    func update(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            state.generation += 1
            state.cacheEpoch += 1
        }
        cache.removeAll()
    }

    /// The points to draw. Setting them takes effect on the next tile; the index is built
    /// then (or by ``prepare()``). Invalid points make tile requests throw
    /// ``HeatmapError/invalidPoint(index:reason:)``.
    public var weightedData: [WeightedLatLng] {
        get { state.withLock { $0.data.points } }
        set { update { $0.data = DataSet(points: newValue) } }
    }

    /// All the drawing settings at once.
    public var settings: HeatmapSettings {
        get { state.withLock { $0.settings } }
        set { update { $0.settings = newValue } }
    }

    /// The kernel's radius in points, 10...50, default 20. An invalid value makes tile
    /// requests throw ``HeatmapError/invalidRadius(_:)``.
    public var radius: Int {
        get { settings.radius }
        set { update { $0.settings.radius = newValue } }
    }

    /// The colours, default ``Gradient/default``.
    public var gradient: Gradient {
        get { settings.gradient }
        set { update { $0.settings.gradient = newValue } }
    }

    /// Multiplies the alpha of every pixel, 0...1, default 0.7. An invalid value makes tile
    /// requests throw ``HeatmapError/invalidOpacity(_:)``.
    public var opacity: Double {
        get { settings.opacity }
        set { update { $0.settings.opacity = newValue } }
    }

    /// A fixed normalisation value for every zoom, or `nil` (default) for the true maximum
    /// intensity of the data at each zoom.
    public var maximumIntensity: Double? {
        get { settings.maximumIntensity }
        set { update { $0.settings.maximumIntensity = newValue } }
    }

    /// Drops every cached tile, and those of stacks that include the layer. Changing the data or
    /// a setting already does.
    public func clearTileCache() {
        update { _ in }
    }

    /// Builds the index of the current data now rather than on the first tile.
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for the first invalid point.
    public func prepare() throws(HeatmapError) {
        _ = try state.withLock { $0.data }.source()
    }
}
