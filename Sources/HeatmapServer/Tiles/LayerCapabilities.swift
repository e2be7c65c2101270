import HeatmapCore
import HeatmapKit

/// What only some of the server's layers do, beside ``TileLayer`` and the library's
/// capabilities (``SettingsTakingLayer``, ``OccupancyLayer``, ``CompositeLayer``): each route
/// is written once against these, and a layer without one gets the route's plain answer.

/// Which threads draw a layer's tiles.
enum RenderWorkload: Sendable {
    /// CPU work (points in memory): the render pool, a thread per core.
    case cpu
    /// Work that waits on something else (a database): Dispatch's global queue.
    case io
}

/// A layer whose data change while it is served (the heatmap): the server caches its tiles by
/// the epoch of its data (reloads) and keeps those a change does not reach, each remembering
/// what it was drawn from (``TileDependency``), in its own route and in every stack alike.
protocol LiveTileLayer: TileLayer, AnyObject {
    /// Advanced by reloads (whole swaps) only: cache keys hold it.
    var epoch: Int { get }
    /// Advanced by every change of the data.
    var generation: Int { get }
    /// The points drawn, for `/metrics`.
    var pointCount: Int { get }
    /// Which threads draw its tiles.
    var workload: RenderWorkload { get }
    /// The server caches that hold its tiles (and stacks' tiles drawn from it), where every
    /// change drops the tiles it reaches.
    var caches: LayerCaches { get }
    /// The tile drawn now with `settings` over the layer's own, with what it was drawn from.
    func drawn(_ request: TileRequest, settings: SettingOverrides) throws(HeatmapError) -> RenderedTile
    /// Whether a tile drawn from the data of `dependency.drawnAt` may answer at `generation`
    /// (drawn from it, or before it with the M(z) the zoom has now; `waiting`: computing M(z)
    /// if it is not known).
    func stands(_ dependency: TileDependency, zoom: Int, scale: Int, at generation: Int, waiting: Bool) -> Bool
    /// Runs `body` with the generation while no change can come (changes drop tiles under it).
    func holdingChanges<Result>(_ body: (_ generation: Int) -> Result) -> Result
    /// The percentile search a tile of these settings needs first, or `nil`.
    func percentileSearch(zoom: Int, scale: Int, settings: SettingOverrides) -> PercentileAdmission.Key?
    /// A version stamp of its answers that every change advances (event loops keep tile answers while it holds).
    var answers: ResponseVersion { get }
}

/// A layer that describes itself in TileJSON (the heatmap, a pre-rendered archive, a hosted layer).
protocol TileJSONLayer: TileLayer {
    /// Its TileJSON for tiles of `scale`, the settings given carried into its tile URLs.
    ///
    /// - Throws: ``LookupFailure`` for a scale it has no tiles of.
    func tileJSON(base: String, settings: SettingOverrides, scale: Int, options: ServerOptions)
        throws(TileService.LookupFailure) -> TileJSON
}

/// What a layer's legend is.
enum LayerLegend {
    /// A legend drawn from M(z) (the heatmap): JSON, and an image.
    case drawn(Legend, LegendDocument)
    /// A legend stored with the tiles (an archive `heatmap render` wrote): JSON only.
    case stored(StoredLegendDocument)

    /// The kind a stack's legend names it by.
    var kind: String {
        switch self {
        case .drawn: "heatmap"
        case .stored: "stored"
        }
    }
}

/// A layer with a legend (the heatmap, an archive with stored legends).
protocol LegendLayer: TileLayer {
    /// What a stack's legend calls it: `heatmap`, `stored`.
    var legendKind: String { get }
    /// The legend of `query`'s zoom, with its settings where the layer takes them.
    ///
    /// - Throws: ``LookupFailure`` saying why there is none (404), or ``HeatmapError`` from M(z).
    func legend(_ query: LegendQuery, base: String) throws -> LayerLegend
}

/// A layer that takes points while served (`POST`/`DELETE /{layer}/points`).
protocol PointsLayer: TileLayer {
    /// Whether it takes them now (a heatmap of points in memory; not one drawn from a database).
    var takesPoints: Bool { get }
    /// How to read a body's points beyond its format: the time and category columns the layer
    /// was read with, which its points must carry too.
    var bodyOptions: PointReadOptions { get }
    /// Appends or removes `points` (with their times and categories, `filtered`, when the layer
    /// has them), dropping the cached tiles they reach.
    ///
    /// - Throws: ``HeatmapError`` naming the point at fault; nothing is changed then.
    func change(_ points: [WeightedLatLng], filtered: FilterIndex?, removing: Bool) throws(HeatmapError)
        -> PointsChange
}

/// What a change of points did to the layer and to the server's cache.
struct PointsChange {
    var change: LiveChange
    /// The layer's generation after it.
    var generation: Int
    /// The cached tiles it dropped (those it reaches).
    var tilesDropped: Int
}

/// A layer read from a file, read again on `SIGHUP` or when the file changes.
protocol ReloadableLayer: TileLayer {
    /// The file (empty for data given directly, which are not reloaded).
    var source: String { get }
    /// Swaps in data read again: requests under way finish on the old data.
    func replace(with data: LayerData)
}
