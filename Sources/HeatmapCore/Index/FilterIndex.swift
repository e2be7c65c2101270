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
/// or every slab it keeps when categories are selected, a copy of their index with the weights
/// of the points it leaves out set to 0 (``PointIndex/withWeights(_:)``): built once per filter,
/// then every tile and M(z) question reads indexes as the unfiltered data's are read. See
/// docs/design/filters.md for the costs.
///
/// Memory: the slabs' indexes (20 bytes a point and their summaries, as one index of the
/// points), 8 bytes a point for the seconds and 2 a category column.
public struct FilterIndex: Sendable {
    /// The slabs, in time order.
    let slabs: [PointIndex]
    /// The first and last second of each slab's points.
    let slabTimes: [ClosedRange<Int64>]
    /// Each slab's points' seconds, in the slab's key order.
    let times: [[Int64]]
    /// Each slab's points' codes, per category column, in the slab's key order.
    let codes: [[[UInt16]]]
    /// The category columns' dictionaries, in the order the codes use.
    public let dictionaries: [CategoryDictionary]

    /// The number of points.
    public var count: Int { slabs.reduce(0) { $0 + $1.count } }

    /// The number of slabs.
    public var slabCount: Int { slabs.count }

    /// The first and last second of any point, or `nil` without points.
    public var timeRange: ClosedRange<Int64>? {
        guard let first = slabTimes.first, let last = slabTimes.last else { return nil }
        return first.lowerBound...last.upperBound
    }

    /// The memory the index holds, in bytes: the slabs' indexes, the seconds and the codes
    /// (the dictionaries' text not counted).
    public var byteCount: Int {
        slabs.reduce(0) { $0 + $1.byteCount } + times.reduce(0) { $0 + $1.count * 8 }
            + codes.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count * 2 } } + slabTimes.count * 16
    }

    /// The points `filter` keeps, as a source to draw and to search for M(z).
    ///
    /// - Complexity: O(points of the slabs the window cuts, or of every slab kept when the
    ///   filter selects categories) to copy their indexes with weights masked; nothing for
    ///   the slabs the window covers whole.
    public func filtered(by filter: PointFilter) -> FilteredPoints {
        var parts: [PointIndex] = []
        let selectsCategories = filter.masks.contains { $0 != nil }
        for s in slabs.indices {
            let span = slabTimes[s]
            if filter.window.misses(span.lowerBound, span.upperBound) { continue }
            if !selectsCategories && filter.window.covers(span.lowerBound, span.upperBound) {
                parts.append(slabs[s])
                continue
            }
            if let part = masked(slab: s, filter: filter) { parts.append(part) }
        }
        return FilteredPoints(parts: parts)
    }

    /// Slab `s` with the weights of the points `filter` leaves out set to 0, or `nil` when it
    /// keeps none of positive weight.
    private func masked(slab s: Int, filter: PointFilter) -> PointIndex? {
        let slab = slabs[s]
        var weights = slab.weights
        var kept = false
        let window = filter.window
        times[s].withUnsafeBufferPointer { seconds in
            weights.withUnsafeMutableBufferPointer { weights in
                for i in 0..<weights.count {
                    var keep = window.contains(seconds[i])
                    if keep {
                        for (c, mask) in filter.masks.enumerated() {
                            if let mask, !mask[Int(codes[s][c][i])] {
                                keep = false
                                break
                            }
                        }
                    }
                    if !keep {
                        weights[i] = 0
                    } else if weights[i] > 0 {
                        kept = true
                    }
                }
            }
        }
        return kept ? slab.withWeights(weights) : nil
    }
}
