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

    /// The coarse nodes of a tree over `slabs`, coarsest level and largest nodes first, while
    /// they stay within a budget of a quarter as many entries as points (5 bytes a point) and
    /// each holds at most half as many entries as its points.
    ///
    /// - Complexity: O(n) for the slabs' cells at the finest level, then O(c log s) a level for
    ///   c cells in s slabs: each level of the tree merges its children's cells.
    static func coarseNodes(of slabs: [PointIndex]) -> [CoarseNode] {
        let points = slabs.reduce(0) { $0 + $1.count }
        guard slabs.count > 1 else { return [] }
        var budget = points / 4
        var nodes: [CoarseNode] = []
        // Each slab's cells at a level, from its keys for the finest level and from the next
        // finer level's cells for the others.
        func quantised(_ keys: [UInt64], _ weights: [Double], level: Int) -> (keys: [UInt64], weights: [Double]) {
            let shift = UInt64(2 * level)
            var cells: [UInt64] = []
            var sums: [Double] = []
            for i in keys.indices {
                let cell = (keys[i] >> shift) << shift
                if cells.last == cell {
                    sums[sums.count - 1] += weights[i]
                } else {
                    cells.append(cell)
                    sums.append(weights[i])
                }
            }
            return (cells, sums)
        }
        var leaves: [(keys: [UInt64], weights: [Double])] = slabs.map { slab in
            quantised(slab.keys, slab.weights.map(Double.init), level: coarseLevels.last ?? 12)
        }
        var found: [(slabs: Range<Int>, level: Int, keys: [UInt64], weights: [Double])] = []
        for level in coarseLevels.reversed() {
            leaves = leaves.map { quantised($0.keys, $0.weights, level: level) }
            var inner: [(range: Range<Int>, keys: [UInt64], weights: [Double], points: Int)] = []
            func build(_ range: Range<Int>) -> (keys: [UInt64], weights: [Double]) {
                if range.count == 1 { return leaves[range.lowerBound] }
                let middle = (range.lowerBound + range.upperBound + 1) / 2
                let merged = merge(build(range.lowerBound..<middle), build(middle..<range.upperBound))
                let count = slabs[range].reduce(0) { $0 + $1.count }
                if merged.keys.count <= count / 2 { inner.append((range, merged.keys, merged.weights, count)) }
                return merged
            }
            _ = build(0..<slabs.count)
            found += inner.map { (slabs: $0.range, level: level, keys: $0.keys, weights: $0.weights) }
        }
        // Coarsest first, then the largest nodes: the root serves the longest windows.
        for node in found.sorted(by: { ($0.level, $0.slabs.count) > ($1.level, $1.slabs.count) }) {
            guard node.keys.count <= budget else { continue }
            budget -= node.keys.count
            nodes.append(
                CoarseNode(
                    slabs: node.slabs, level: node.level,
                    index: PointIndex(sortedKeys: node.keys, weights: node.weights.map { Float($0) })))
        }
        return nodes
    }

    /// Two cell lists merged in key order, the weights of a cell in both added.
    private static func merge(_ a: (keys: [UInt64], weights: [Double]), _ b: (keys: [UInt64], weights: [Double]))
        -> (keys: [UInt64], weights: [Double])
    {
        var keys: [UInt64] = []
        var weights: [Double] = []
        keys.reserveCapacity(a.keys.count + b.keys.count)
        weights.reserveCapacity(a.keys.count + b.keys.count)
        var (i, j) = (0, 0)
        while i < a.keys.count || j < b.keys.count {
            let x = i < a.keys.count ? a.keys[i] : .max
            let y = j < b.keys.count ? b.keys[j] : .max
            if x == y {
                keys.append(x)
                weights.append(a.weights[i] + b.weights[j])
                (i, j) = (i + 1, j + 1)
            } else if x < y {
                keys.append(x)
                weights.append(a.weights[i])
                i += 1
            } else {
                keys.append(y)
                weights.append(b.weights[j])
                j += 1
            }
        }
        return (keys, weights)
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
