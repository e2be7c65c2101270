/// A tile of the XYZ scheme: zoom, column from the west, row from the north.
public struct TileCoordinate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The zoom level, 0...22.
    public var zoom: Int
    /// The column, 0..<2^zoom from the antimeridian eastwards.
    public var x: Int
    /// The row, 0..<2^zoom from the north.
    public var y: Int

    /// Creates a coordinate (not checked: see ``isValid``).
    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// Whether the zoom is 0...22 and the column and row lie on its grid.
    package var isValid: Bool {
        (0...22).contains(zoom) && (0..<(1 << zoom)).contains(x) && (0..<(1 << zoom)).contains(y)
    }

    /// The row in the TMS scheme MBTiles uses, counted from the south: `2^zoom - 1 - y`.
    package var tmsRow: Int { (1 << zoom) - 1 - y }

    /// The four tiles of the next zoom that this one covers.
    package var children: [TileCoordinate] {
        [(0, 0), (1, 0), (0, 1), (1, 1)].map { TileCoordinate(zoom: zoom + 1, x: 2 * x + $0.0, y: 2 * y + $0.1) }
    }

    /// `zoom/x/y`.
    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// Orders by zoom, then row, then column.
    public static func < (a: TileCoordinate, b: TileCoordinate) -> Bool {
        (a.zoom, a.y, a.x) < (b.zoom, b.y, b.x)
    }
}
