extension KeyRanges {
    /// The Morton-key ranges (as stored) of aligned quadtree cells that cover a rectangle of
    /// units closely: cells wholly inside it as large as they come, and cells on its edges no
    /// wider than 1/`detail` of its longer side, adjacent ranges merged. The rows they hold
    /// beyond the rectangle are at most a strip one small cell wide around it, so a sparse
    /// tile beside a dense cluster reads few of the cluster's rows (``covering(columns:rows:)``'s
    /// 3 × 3 cells may be 9 times the rectangle's area).
    ///
    /// - Complexity: O(`detail`) ranges, O(`detail` log `detail`) to make them.
    static func decomposed(columns: Range<UInt64>, rows: Range<UInt64>, detail: UInt64 = 16) -> [ClosedRange<Int64>] {
        guard !columns.isEmpty, !rows.isEmpty, columns.upperBound <= 1 << 32, rows.upperBound <= 1 << 32 else {
            return []
        }
        let side = max(columns.count, rows.count)
        var finest: UInt64 = 0
        while finest < 31, (UInt64(1) << finest) * detail < UInt64(side) { finest += 1 }
        var start: UInt64 = finest
        while start < 31,
            ((columns.upperBound - 1) >> start) - (columns.lowerBound >> start) > 2
                || ((rows.upperBound - 1) >> start) - (rows.lowerBound >> start) > 2
        {
            start += 1
        }
        var ranges: [(UInt64, UInt64)] = []
        func visit(_ cx: UInt64, _ cy: UInt64, _ level: UInt64) {
            let x0 = cx << level
            let y0 = cy << level
            let size = UInt64(1) << level
            guard x0 < columns.upperBound, x0 + size > columns.lowerBound, y0 < rows.upperBound,
                y0 + size > rows.lowerBound
            else { return }
            let inside =
                x0 >= columns.lowerBound && x0 + size <= columns.upperBound && y0 >= rows.lowerBound
                && y0 + size <= rows.upperBound
            if inside || level <= finest {
                let low = key(x: x0, y: y0)
                ranges.append((low, low | ((size * size) &- 1)))
                return
            }
            for j in UInt64(0)...1 {
                for i in UInt64(0)...1 { visit(cx * 2 + i, cy * 2 + j, level - 1) }
            }
        }
        for cy in (rows.lowerBound >> start)...((rows.upperBound - 1) >> start) {
            for cx in (columns.lowerBound >> start)...((columns.upperBound - 1) >> start) { visit(cx, cy, start) }
        }
        return merged(ranges)
    }
}
