/// Points with a time and categories, indexed so that a tile of any time window and
/// categories costs its occupied pixels: the filtered data set as a ``WeightSource`` and
/// `CellSource` (``FilteredPoints``), drawn by the one gather and searched by the one M(z)
/// search.
///
/// The points are cut by time into slabs of about equal counts (a time's points all in one
/// slab), and each slab is a ``PointIndex`` of its own: its Morton order, running sums,
/// summaries and run starts. Beside each slab's points, in its key order, lie their seconds and
/// their category codes (see ``CategoryDictionary``). A filter keeps the slabs its window
/// covers whole as they are, drops those it misses, and gives the (at most two) slabs it cuts,
/// or every slab it keeps when categories are selected, an index of just the points it keeps
/// (already in key order: no sort): built once per filter, then every tile and M(z) question reads indexes as the unfiltered data's are read. See
/// docs/design/filters.md for the costs.
///
/// Memory: the slabs' indexes (20 bytes a point and their summaries, as one index of the
/// points), 4 bytes a point for the seconds, 2 a category column, and the coarse nodes of a
/// tree over the slabs (at most 5 bytes a point; see `FilterIndex+Coarse.swift`).
package struct FilterIndex: Sendable {
    /// The slabs, in time order.
    let slabs: [PointIndex]
    /// The first and last second of each slab's points.
    let slabTimes: [ClosedRange<Int64>]
    /// Each slab's points' seconds after the slab's first, in the slab's key order.
    let times: [[UInt32]]
    /// Each slab's points' codes, per category column, in the slab's key order.
    let codes: [[[UInt16]]]
    /// The category columns' dictionaries, in the order the codes use.
    package let dictionaries: [CategoryDictionary]
    /// Inner nodes of a tree over the slabs with their points quantised to coarse cells.
    let coarseNodes: [CoarseNode]
    /// The summaries of coarse levels of all the points, as one plain index of them keeps
    /// (the slabs keep none): a filter keeping every point draws its coarse pixels from them.
    let summaries: CellSummaries

    init(
        slabs: [PointIndex], slabTimes: [ClosedRange<Int64>], times: [[UInt32]], codes: [[[UInt16]]],
        dictionaries: [CategoryDictionary], coarseNodes: [CoarseNode], summaries: CellSummaries = CellSummaries()
    ) {
        self.summaries = summaries
        self.slabs = slabs
        self.slabTimes = slabTimes
        self.times = times
        self.codes = codes
        self.dictionaries = dictionaries
        self.coarseNodes = coarseNodes
    }

    /// The number of points.
    package var count: Int { slabs.reduce(0) { $0 + $1.count } }

    /// The number of slabs.
    package var slabCount: Int { slabs.count }

    /// The first and last second of any point, or `nil` without points.
    package var timeRange: ClosedRange<Int64>? {
        guard let first = slabTimes.first, let last = slabTimes.last else { return nil }
        return first.lowerBound...last.upperBound
    }

    /// The memory the index holds, in bytes: the slabs' indexes, the seconds and the codes
    /// (the dictionaries' text not counted).
    package var byteCount: Int {
        slabs.reduce(0) { $0 + $1.byteCount } + times.reduce(0) { $0 + $1.count * 4 }
            + coarseNodes.reduce(0) { $0 + $1.index.byteCount }
            + codes.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count * 2 } } + slabTimes.count * 16
            + summaries.byteCount
    }

    /// The points `filter` keeps, as a source to draw and to search for M(z).
    ///
    /// - Complexity: O(points of the slabs the window cuts, or of every slab kept when the
    ///   filter selects categories) to index the points they keep; nothing for
    ///   the slabs the window covers whole.
    package func filtered(by filter: PointFilter) -> FilteredPoints {
        var masked: [PointIndex] = []
        var covered: [Int] = []
        let selectsCategories = filter.masks.contains { $0 != nil }
        for s in slabs.indices {
            let span = slabTimes[s]
            if filter.window.misses(span.lowerBound, span.upperBound) { continue }
            if !selectsCategories && filter.window.covers(span.lowerBound, span.upperBound) {
                covered.append(s)
            } else if let part = self.masked(slab: s, filter: filter) {
                masked.append(part)
            }
        }
        let parts = masked + covered.map { slabs[$0] }
        // Every point kept: the whole data's summaries draw coarse pixels as a plain index's do.
        if masked.isEmpty, covered.count == slabs.count {
            return FilteredPoints(parts: parts, whole: summaries)
        }
        // The slabs covered whole are consecutive: a window's slabs are.
        guard let first = covered.first, let last = covered.last else { return FilteredPoints(parts: parts) }
        let coarse = Set(coarseNodes.map(\.level)).sorted(by: >).map { level in
            (level, masked + coarseParts(covering: first..<(last + 1), level: level))
        }
        return FilteredPoints(parts: parts, coarse: coarse)
    }

    /// The points of slab `s` that `filter` keeps, as an index of their own (in the slab's key
    /// order, so no sort), or `nil` when it keeps none of positive weight.
    ///
    /// - Complexity: O(points of the slab) to test them, O(k) to index the k kept.
    private func masked(slab s: Int, filter: PointFilter) -> PointIndex? {
        let slab = slabs[s]
        var keys: [UInt64] = []
        var weights: [Float] = []
        var positive = false
        let window = filter.window
        let base = slabTimes[s].lowerBound
        let masks = filter.masks.enumerated().compactMap { c, mask in mask.map { (codes[s][c], $0) } }
        times[s].withUnsafeBufferPointer { seconds in
            slab.weights.withUnsafeBufferPointer { slabWeights in
                for i in 0..<seconds.count where window.contains(base + Int64(seconds[i])) {
                    // A code past the mask is a value added after the filter was resolved: not selected.
                    if masks.contains(where: { Int($0.0[i]) >= $0.1.count || !$0.1[Int($0.0[i])] }) { continue }
                    keys.append(slab.keys[i])
                    weights.append(slabWeights[i])
                    positive = positive || slabWeights[i] > 0
                }
            }
        }
        return positive ? PointIndex(sortedKeys: keys, weights: weights) : nil
    }
}
