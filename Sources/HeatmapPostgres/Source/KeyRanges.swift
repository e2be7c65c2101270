import HeatmapCore
import HeatmapKit

/// The Morton-key ranges (as stored, the `bigint` of the key's bits) of the few aligned
/// quadtree cells that cover a rectangle of units: at most 3 × 3 cells of the smallest level
/// that needs no more, adjacent ranges merged. A query asks the key's B-tree for these
/// ranges and filters the exact rectangle on the unit columns.
enum KeyRanges {
    /// The ranges covering units `columns` × `rows` (non-empty, inside 0..<2^32).
    static func covering(columns: Range<UInt64>, rows: Range<UInt64>) -> [ClosedRange<Int64>] {
        guard !columns.isEmpty, !rows.isEmpty, columns.upperBound <= 1 << 32, rows.upperBound <= 1 << 32 else {
            return []
        }
        var level: UInt64 = 0
        while level < 31,
            ((columns.upperBound - 1) >> level) - (columns.lowerBound >> level) > 2
                || ((rows.upperBound - 1) >> level) - (rows.lowerBound >> level) > 2
        {
            level += 1
        }
        var ranges: [(UInt64, UInt64)] = []
        for cy in (rows.lowerBound >> level)...((rows.upperBound - 1) >> level) {
            for cx in (columns.lowerBound >> level)...((columns.upperBound - 1) >> level) {
                let low = key(x: cx << level, y: cy << level)
                ranges.append((low, low | ((1 << (2 * level)) - 1)))
            }
        }
        return merged(ranges)
    }

    /// The Morton key of a unit position (each below 2^32), as the in-memory index keys it.
    static func key(x: UInt64, y: UInt64) -> UInt64 {
        PointIndex.key(unitX: UInt32(truncatingIfNeeded: x), unitY: UInt32(truncatingIfNeeded: y))
    }
}
