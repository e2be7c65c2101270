extension FilterIndex {
    /// The first and last second of the points `filter` keeps that weigh something (those its
    /// tiles draw), or `nil` when it keeps none: where an animation's open ends close, so that
    /// a category's frames start at its first point rather than the data's.
    ///
    /// - Complexity: O(points of the slabs before the first kept point and after the last):
    ///   the slabs are in time order, so the scan stops at the first slab from each end that
    ///   keeps one.
    package func timeRange(keeping filter: PointFilter) -> ClosedRange<Int64>? {
        let candidates = slabs.indices.filter {
            !filter.window.misses(slabTimes[$0].lowerBound, slabTimes[$0].upperBound)
        }
        guard let first = candidates.lazy.compactMap({ self.keptSeconds(slab: $0, filter: filter) }).first,
            let last = candidates.reversed().lazy.compactMap({ self.keptSeconds(slab: $0, filter: filter) }).first
        else { return nil }
        return first.lowerBound...last.upperBound
    }

    /// The first and last second of the points of slab `s` that `filter` keeps with a
    /// positive weight, or `nil` for none.
    private func keptSeconds(slab s: Int, filter: PointFilter) -> ClosedRange<Int64>? {
        let base = slabTimes[s].lowerBound
        let masks = filter.masks.enumerated().compactMap { c, mask in mask.map { (codes[s][c], $0) } }
        var low = Int64.max
        var high = Int64.min
        times[s].withUnsafeBufferPointer { seconds in
            slabs[s].weights.withUnsafeBufferPointer { weights in
                for i in 0..<seconds.count where weights[i] > 0 {
                    let second = base + Int64(seconds[i])
                    guard second < low || second > high, filter.window.contains(second) else { continue }
                    // A code past the mask is a value added after the filter was resolved: not selected.
                    if masks.contains(where: { Int($0.0[i]) >= $0.1.count || !$0.1[Int($0.0[i])] }) { continue }
                    low = min(low, second)
                    high = max(high, second)
                }
            }
        }
        return low <= high ? low...high : nil
    }
}
