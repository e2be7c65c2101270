/// A rectangle of world pixels at some zoom and scale; columns may run past the world's
/// edges (the world wraps east-west), rows may not be drawn beyond them.
package struct PixelRect: Sendable, Hashable {
    /// The westmost column.
    public var x: Int
    /// The northmost row.
    public var y: Int
    /// The number of columns, at least 1.
    public var width: Int
    /// The number of rows, at least 1.
    public var height: Int

    /// Creates a rectangle from its north-west pixel and size in pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixels of tile `x`, `y` in a pixel space: a square of `space.tileSize` pixels.
    public init(tileX x: Int, y: Int, in space: PixelSpace) {
        self.init(x: x * space.tileSize, y: y * space.tileSize, width: space.tileSize, height: space.tileSize)
    }

    /// The rectangle grown by `margin` pixels on every side.
    public func expanded(by margin: Int) -> PixelRect {
        PixelRect(x: x - margin, y: y - margin, width: width + 2 * margin, height: height + 2 * margin)
    }
}

extension PixelRect {
    /// The smallest rectangle that holds both rectangles.
    func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width)
        let y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
