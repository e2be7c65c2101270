extension KeyRanges {
    /// Unsigned key ranges (`low`, `high`, inclusive) sorted, adjacent ones merged, as stored
    /// (`bigint`, the key's bits): the last step of ``covering(columns:rows:)`` and
    /// ``decomposed(columns:rows:detail:)``.
    static func merged(_ ranges: [(UInt64, UInt64)]) -> [ClosedRange<Int64>] {
        var merged: [(UInt64, UInt64)] = []
        for range in ranges.sorted(by: { $0.0 < $1.0 }) {
            // Keys from 2^63 on are negative as stored: a range never runs across it.
            if let last = merged.last, last.1 &+ 1 == range.0, range.0 != 1 << 63 {
                merged[merged.count - 1].1 = range.1
            } else {
                merged.append(range)
            }
        }
        return merged.map { Int64(bitPattern: $0.0)...Int64(bitPattern: $0.1) }
    }
}
