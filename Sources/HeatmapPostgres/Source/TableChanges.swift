import HeatmapCore
import HeatmapKit

/// What the rows of a table did between two change counts, as the change log recorded it:
/// the coarse cells (aligned squares of fixed-point units) that rows were removed from or
/// added to. See ``PostgresSource/changes(after:through:)``.
package struct TableChanges: Sendable, Hashable {
    /// One aligned square of 2^level × 2^level units, column `x`, row `y` at that level.
    public struct Cell: Sendable, Hashable {
        /// log2 of the side in units (32 for the whole world).
        public var level: Int
        /// The column at `level`.
        public var x: UInt64
        /// The row at `level`.
        public var y: UInt64
    }

    /// The cells rows were added to (or updated in, as they are after the update).
    public var added: Set<Cell>
    /// The cells rows were removed from (or updated in, as they were before).
    public var removed: Set<Cell>

    /// Whether a change covers the whole world (a `TRUNCATE`).
    public var isWholeWorld: Bool {
        added.contains { $0.level >= ChangeLog.wholeWorld } || removed.contains { $0.level >= ChangeLog.wholeWorld }
    }

    /// The world pixels of `space` whose intensity, for a kernel of `reach` pixels, the
    /// changes can alter: each cell's pixels grown by `reach`, rows clipped to the world,
    /// columns starting in `0..<worldSize` and at most the world wide (they run on past its
    /// east edge across the antimeridian). One rectangle per distinct cell's.
    package func reachedRects(space: PixelSpace, reach: Int) -> Set<PixelRect> {
        var rects: Set<PixelRect> = []
        let world = space.worldSize
        for cell in added.union(removed) {
            guard cell.level < ChangeLog.wholeWorld else {
                rects.insert(PixelRect(x: 0, y: 0, width: world, height: world))
                continue
            }
            let side = UInt64(1) << UInt64(cell.level)
            let x0 = space.pixel(ofUnit: cell.x << UInt64(cell.level)) - reach
            let x1 = space.pixel(ofUnit: (cell.x << UInt64(cell.level)) + side - 1) + reach
            let y0 = max(0, space.pixel(ofUnit: cell.y << UInt64(cell.level)) - reach)
            let y1 = min(world - 1, space.pixel(ofUnit: (cell.y << UInt64(cell.level)) + side - 1) + reach)
            guard y0 <= y1 else { continue }
            let start = ((x0 % world) + world) % world
            rects.insert(PixelRect(x: start, y: y0, width: min(x1 - x0 + 1, world), height: y1 - y0 + 1))
        }
        return rects
    }
}
