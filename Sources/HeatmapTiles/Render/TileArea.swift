import HeatmapCore
import HeatmapKit

/// The tiles of each zoom that meet an area of longitudes and latitudes (west > east crosses
/// the antimeridian).
public struct TileArea: Sendable, Hashable {
    /// The area.
    public let bounds: PointBounds

    /// An area from its bounds.
    public init(_ bounds: PointBounds) { self.bounds = bounds }

    /// Whether the tile meets the area (its edges included).
    package func contains(_ tile: TileCoordinate) -> Bool {
        let n = 1 << tile.zoom
        let row = { (latitude: Double) in Int(WebMercator.unitY(latitude: latitude) >> UInt32(32 - tile.zoom)) }
        guard (row(bounds.north)...row(bounds.south)).contains(tile.y) else { return false }
        let column = { (longitude: Double) -> Int in
            let fraction = min(max((longitude + 180) / 360, 0), 1)
            return min(n - 1, Int((fraction * Double(n)).rounded(.down)))
        }
        let west = column(bounds.west)
        let east = column(bounds.east)
        if bounds.west <= bounds.east { return (west...east).contains(tile.x) }
        return tile.x >= west || tile.x <= east
    }
}
