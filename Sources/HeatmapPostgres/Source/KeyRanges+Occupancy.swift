extension KeyRanges {
    /// The most rows a tile's ranges may hold in all (counted by cells, see ``CellOccupancy``)
    /// to be read as one range: one B-tree descent and a few rows beside the tile cost less
    /// than a descent a range (about 2 µs each, against a tenth of that a row).
    static let oneRangeRows = 128
    /// The most rows between two ranges (counted by cells) for them to be read as one.
    static let gapRows = 16

    /// `ranges` (sorted, as ``merged(_:)`` gives them) with neighbours joined where
    /// `rows(low, high)` (an upper bound on the rows with keys in `low...high`, `nil` when not
    /// known) says few rows lie between them: all into one range when the whole span holds at
    /// most ``oneRangeRows``, else each gap holding at most ``gapRows``. Every range given is
    /// inside one returned, so a statement over them reads every row it read before.
    static func merging(_ ranges: [ClosedRange<Int64>], rows: (UInt64, UInt64) -> Int?) -> [ClosedRange<Int64>] {
        guard let first = ranges.first, let last = ranges.last, ranges.count > 1 else { return ranges }
        // Keys from 2^63 on are negative as stored: a range never runs across it.
        func joinable(_ low: Int64, _ high: Int64) -> Bool { (low < 0) == (high < 0) }
        if joinable(first.lowerBound, last.upperBound),
            let total = rows(UInt64(bitPattern: first.lowerBound), UInt64(bitPattern: last.upperBound)),
            total <= oneRangeRows
        {
            return [first.lowerBound...last.upperBound]
        }
        var joined: [ClosedRange<Int64>] = [first]
        for range in ranges.dropFirst() {
            guard let previous = joined.last else { break }
            let gapLow = UInt64(bitPattern: previous.upperBound) &+ 1
            let gapHigh = UInt64(bitPattern: range.lowerBound) &- 1
            if joinable(previous.lowerBound, range.upperBound), gapLow <= gapHigh,
                let between = rows(gapLow, gapHigh), between <= gapRows
            {
                joined[joined.count - 1] = previous.lowerBound...range.upperBound
            } else {
                joined.append(range)
            }
        }
        return joined
    }
}
