/// Coarse nodes: for a binary tree over the slabs, each inner node's points quantised to the
/// cells of a coarse level, one entry a occupied cell with the cells' summed weight. At pixels
/// of that level or coarser a cell lies in one pixel, so the node's entries give the same pixel
/// weights and occupied cells as its points: a window covering many slabs reads O(log slabs)
/// nodes a pixel instead of every slab (see docs/design/filters.md).
struct CoarseNode: Sendable {
    /// The slabs the node covers.
    let slabs: Range<Int>
    /// The level of the cells its entries stand for.
    let level: Int
    /// One point a occupied cell, at the cell's first key.
    let index: PointIndex
}

extension FilterIndex {
    /// The levels of the coarse nodes, coarsest first: a node of level L serves pixels up to
    /// zoom 24 − L at scale 1 (zooms 4, 6, 8, 10 and 12).
    static let coarseLevels = [20, 18, 16, 14, 12]

    /// The coarse nodes of a tree over the slabs, largest nodes first, while they stay within
    /// a budget of a quarter as many entries as points (5 bytes a point) and each holds at most
    /// half as many entries as its points. The root is left out: a window covering every slab
    /// keeps every point, and is drawn from the whole data's summaries and the slabs.
    ///
    /// Each slab's cells of a level come from one pass over its keys (a cell's weight is a
    /// subtraction of the slab's running sums); a node's cells are its two halves' merged.
    ///
    /// - Complexity: O(n) a level for the slabs' cells, and O(entries) a node to merge.
    ///
    /// - Parameter finest: the slabs' cells of the finest of `levels`, where the caller found
    ///   them already (else found here).
    static func coarseNodes(slabs: [PointIndex], levels: [Int] = coarseLevels, finest: [CellList] = []) -> [CoarseNode]
    {
        guard slabs.count > 2, !levels.isEmpty else { return [] }
        let n = slabs.reduce(0) { $0 + $1.count }
        var found: [(slabs: Range<Int>, level: Int, cells: CellList, points: Int)] = []
        // Each slab's cells of the finest level from its keys, of coarser levels from those.
        var leaves: [CellList] = []
        for level in levels.sorted() {
            if leaves.isEmpty {
                leaves = finest.count == slabs.count ? finest : slabs.map { CellList(of: $0, level: level) }
            } else {
                leaves = leaves.map { $0.coarsened(to: level) }
            }
            // A node's cells, its halves' merged; the nodes of at most half as many cells as points kept.
            func visit(_ range: Range<Int>) -> CellList {
                guard range.count > 1 else { return leaves[range.lowerBound] }
                let middle = (range.lowerBound + range.upperBound + 1) / 2
                let cells = visit(range.lowerBound..<middle).merged(with: visit(middle..<range.upperBound))
                let points = slabs[range].reduce(0) { $0 + $1.count }
                if cells.keys.count <= points / 2 { found.append((range, level, cells, points)) }
                return cells
            }
            let middle = (slabs.count + 1) / 2
            _ = visit(0..<middle)
            _ = visit(middle..<slabs.count)
        }
        var budget = n / 4
        var nodes: [CoarseNode] = []
        // The largest nodes first, at every level (coarsest first among nodes of a size): the
        // halves serve the longest windows, at every zoom up to the finest level's.
        for node in found.sorted(by: { ($0.slabs.count, $0.level) > ($1.slabs.count, $1.level) }) {
            guard node.cells.keys.count <= budget else { continue }
            budget -= node.cells.keys.count
            nodes.append(
                CoarseNode(
                    slabs: node.slabs, level: node.level,
                    index: PointIndex(sortedKeys: node.cells.keys, weights: node.cells.weights.map { Float($0) })))
        }
        return nodes
    }

    /// The occupied cells of one level of some slabs: each cell's first key (its corner) and
    /// the sum of its points' weights, ascending.
    struct CellList {
        var keys: [UInt64] = []
        var weights: [Double] = []

        init(keys: [UInt64], weights: [Double]) {
            self.keys = keys
            self.weights = weights
        }

        /// The cells of 2^`level` units of an index's points, of any weight.
        ///
        /// - Complexity: O(points).
        init(of index: PointIndex, level: Int) {
            let shift = UInt64(2 * level)
            var keys: [UInt64] = []
            var weights: [Double] = []
            keys.reserveCapacity(index.cellCounts.indices.contains(level) ? index.cellCounts[level] : 0)
            weights.reserveCapacity(keys.capacity)
            index.keys.withUnsafeBufferPointer { k in
                index.prefix.withUnsafeBufferPointer { prefix in
                    var start = 0
                    while start < k.count {
                        let cell = k[start] >> shift
                        var end = start + 1
                        while end < k.count && k[end] >> shift == cell { end += 1 }
                        keys.append(cell << shift)
                        weights.append(prefix[end] - prefix[start])
                        start = end
                    }
                }
            }
            self.init(keys: keys, weights: weights)
        }

        /// These cells (of a finer level) as cells of `level`, a cell's weights added.
        ///
        /// - Complexity: O(cells).
        func coarsened(to level: Int) -> CellList {
            let shift = UInt64(2 * level)
            return CellList.written(capacity: keys.count) { add in
                for i in keys.indices { add((keys[i] >> shift) << shift, weights[i]) }
            }
        }

        /// These cells and `other`'s, a cell in both once with the weights added.
        ///
        /// - Complexity: O(cells of both).
        func merged(with other: CellList) -> CellList {
            CellList.written(capacity: keys.count + other.keys.count) { add in
                var (i, j) = (0, 0)
                while i < keys.count || j < other.keys.count {
                    if j == other.keys.count || (i < keys.count && keys[i] < other.keys[j]) {
                        add(keys[i], weights[i])
                        i += 1
                    } else {
                        add(other.keys[j], other.weights[j])
                        j += 1
                    }
                }
            }
        }

        /// The cells `body` adds in ascending order (at most `capacity`; a key equal to the last
        /// one's adds its weight to that cell), written straight into their arrays.
        private static func written(
            capacity: Int, _ body: (_ add: (UInt64, Double) -> Void) -> Void
        ) -> CellList {
            var weights: [Double] = []
            let keys = [UInt64](unsafeUninitializedCapacity: capacity) { keys, count in
                weights = [Double](unsafeUninitializedCapacity: capacity) { weights, weighed in
                    var n = 0
                    body { key, weight in
                        if n > 0 && keys[n - 1] == key {
                            weights[n - 1] += weight
                        } else {
                            keys.initializeElement(at: n, to: key)
                            weights.initializeElement(at: n, to: weight)
                            n += 1
                        }
                    }
                    weighed = n
                }
                count = weights.count
            }
            return CellList(keys: keys, weights: weights)
        }
    }

    /// The parts that hold the slabs `covered` (all whole) for pixels of `level` or coarser
    /// cells: the largest coarse nodes of a level at most `level` that fit, and the slabs
    /// themselves where none does.
    func coarseParts(covering covered: Range<Int>, level: Int) -> [PointIndex] {
        var parts: [PointIndex] = []
        func visit(_ range: Range<Int>) {
            guard range.overlaps(covered) else { return }
            if range.count == 1 {
                parts.append(slabs[range.lowerBound])
                return
            }
            if covered.lowerBound <= range.lowerBound, range.upperBound <= covered.upperBound,
                let node = coarseNodes.first(where: { $0.slabs == range && $0.level <= level })
            {
                parts.append(node.index)
                return
            }
            let middle = (range.lowerBound + range.upperBound + 1) / 2
            visit(range.lowerBound..<middle)
            visit(middle..<range.upperBound)
        }
        if !covered.isEmpty { visit(0..<slabs.count) }
        return parts
    }
}
