/// An immutable index of weighted points for rendering tiles at any zoom.
///
/// Points are kept in fixed-point world units (see ``WebMercator``) sorted along a Z-order
/// curve, with running sums of weight: every aligned square of the world is one slice of
/// the arrays, and its total weight is one subtraction. A tile therefore costs a walk over
/// the occupied pixels (or the few points) near it, never a scan of all points.
///
/// Memory: 20 bytes a point (an 8-byte key, a 4-byte weight and an 8-byte running sum), plus
/// at most 6 for the summaries of coarse levels (8 bytes an occupied cell; 5.3 a point for
/// the benchmark's 10 million clustered points), which let a dense tile at zooms 0 to 8 cost
/// its pixels rather than its points, and at most 1 for the run starts of finer levels where
/// points repeat positions (see `RunStarts`; none for spread data).
package struct PointIndex: Sendable {
    /// Morton keys of the points' unit positions, ascending.
    let keys: [UInt64]
    /// The points' weights, in the order of `keys`.
    let weights: [Float]
    /// `prefix[i]` is the sum of `weights[0..<i]`; `prefix.count == keys.count + 1`.
    let prefix: [Double]
    /// The occupied cells and their weights at coarse levels with long runs of keys a cell.
    let summaries: CellSummaries
    /// Where each cell's keys start, at fine levels whose cells hold many points each.
    let runStarts: RunStarts
    /// The number of distinct cells of each level 0...32 among the keys (of any weight).
    package let cellCounts: [Int]

    /// The number of points indexed.
    public var count: Int { keys.count }
    /// The memory the index holds, in bytes: 20 a point, plus 8, plus the summaries and run starts.
    package var byteCount: Int {
        keys.count * 8 + weights.count * 4 + prefix.count * 8 + summaries.byteCount + runStarts.byteCount
    }

    /// The sum of all weights.
    public var totalWeight: Double { prefix[prefix.count - 1] }

    /// Builds the index of a list of points.
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for the first point with a
    ///   latitude that is not a number in -90...90, a longitude that is not finite, or an
    ///   intensity that is not finite and at least 0 (or too large for 32-bit floats).
    /// - Complexity: O(n) (a radix sort).
    public init(points: [WeightedLatLng]) throws(HeatmapError) {
        var builder = Builder(capacity: points.count)
        for point in points { try builder.append(point) }
        self = builder.build()
    }

    /// Builds the index from Morton keys in ascending order and their weights; without
    /// `summarised`, no summaries of coarse levels (a filter index's slabs: the whole data's
    /// summaries serve their coarse pixels).
    ///
    /// - Complexity: O(n): the running sums, a pass to count cells, and one for the summaries
    ///   and the run starts each.
    init(sortedKeys keys: consuming [UInt64], weights: consuming [Float], summarised: Bool = true) {
        var prefix = [Double](repeating: 0, count: keys.count + 1)
        var sum = 0.0
        for i in 0..<weights.count {
            sum += Double(weights[i])
            prefix[i + 1] = sum
        }
        (summaries, runStarts, cellCounts) = keys.withUnsafeBufferPointer { k in
            let cells = RunStarts.cellCounts(of: k)
            return (
                summarised
                    ? prefix.withUnsafeBufferPointer { p in CellSummaries(keys: k, prefix: p, cells: cells) }
                    : CellSummaries(),
                RunStarts(keys: k, cells: cells), cells
            )
        }
        self.keys = keys
        self.weights = weights
        self.prefix = prefix
    }

    /// An index without summaries of coarse levels (a filter index's slab) from sorted keys,
    /// their weights, their running sums (`prefix.count == keys.count + 1`) and their number
    /// of cells of every level (see `RunStarts.cellCounts(of:)`), all found by one pass
    /// that gathered them: only the run starts are left to find.
    ///
    /// - Complexity: O(n) for the run starts.
    init(sortedKeys keys: consuming [UInt64], weights: consuming [Float], prefix: consuming [Double], cells: [Int]) {
        runStarts = keys.withUnsafeBufferPointer { RunStarts(keys: $0, cells: cells) }
        summaries = CellSummaries()
        cellCounts = cells
        self.keys = keys
        self.weights = weights
        self.prefix = prefix
    }
}
