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
    /// The rectangle's parts inside the world, one for each copy of the world its columns
    /// overlap (the world wraps east-west; rows outside it hold nothing): the world columns and
    /// rows of each, and the offset that turns a world column into a column of the rectangle
    /// (the copy times the world's width). The one split at the antimeridian of every gather
    /// and question.
    ///
    /// Example at zoom 0, scale 1 (world 256 px): columns -20..<276 give (236..<256, -256),
    /// (0..<256, 0) and (0..<20, 256).
    package func worldParts(in space: PixelSpace) -> [(columns: Range<Int>, rows: Range<Int>, offset: Int)] {
        let world = space.worldSize
        let rows = max(0, y)..<min(world, y + height)
        guard !rows.isEmpty, width > 0 else { return [] }
        return (floorDivide(x, world)...floorDivide(x + width - 1, world)).compactMap { copy in
            let offset = copy * world
            let columns = max(0, x - offset)..<min(world, x + width - offset)
            return columns.isEmpty ? nil : (columns, rows, offset)
        }
    }

    /// The smallest rectangle that holds both rectangles.
    func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width)
        let y1 = max(y + height, other.y + other.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
