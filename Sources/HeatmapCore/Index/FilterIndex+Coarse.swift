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

    /// The coarse nodes of a tree over the slabs, from all the points in key order (`points`
    /// carries each one's slab and weight), largest nodes first, while they stay within a
    /// budget of a quarter as many entries as points (5 bytes a point) and each holds at most
    /// half as many entries as its points.
    ///
    /// - Complexity: O(n) for one pass over the points, and O(log s) a slab present in a cell
    ///   of a level: a cell's weight a slab goes up to the next level's cell and to the nodes
    ///   above the slab.
    static func coarseNodes(
        keys: [UInt64], points: [SortedPoint], slabCounts: [Int], levels chosen: [Int] = coarseLevels
    ) -> [CoarseNode] {
        guard slabCounts.count > 1, !chosen.isEmpty, keys.count == points.count, let first = keys.first else {
            return []
        }
        let tree = Tree(slabCounts: slabCounts)
        let levels = chosen.sorted()
        var cells = levels.map { Cells(level: $0, slabs: slabCounts.count, nodes: tree.ranges.count) }
        var handed: [(slab: Int, weight: Double)] = []
        var previous = first
        for i in keys.indices {
            let key = keys[i]
            let difference = key ^ previous
            if difference != 0 {
                // Close the cells of `previous` that `key` leaves, finest first.
                var l = 0
                while l < levels.count, difference >> UInt64(2 * levels[l]) != 0 {
                    close(&cells, level: l, key: previous, tree: tree, handed: &handed)
                    l += 1
                }
                previous = key
            }
            cells[0].add(slab: Int(points[i].slab), weight: Double(points[i].weight))
        }
        for l in levels.indices { close(&cells, level: l, key: previous, tree: tree, handed: &handed) }
        var found: [(slabs: Range<Int>, level: Int, keys: [UInt64], weights: [Double], points: Int)] = []
        for level in cells {
            for (node, range) in tree.ranges.enumerated() where level.keys[node].count <= tree.counts[node] / 2 {
                found.append((range, level.level, level.keys[node], level.weights[node], tree.counts[node]))
            }
        }
        var budget = keys.count / 4
        var nodes: [CoarseNode] = []
        // The largest nodes first, at every level (coarsest first among nodes of a size): the
        // root serves the longest windows, at every zoom up to the finest level's.
        for node in found.sorted(by: { ($0.slabs.count, $0.level) > ($1.slabs.count, $1.level) }) {
            guard node.keys.count <= budget else { continue }
            budget -= node.keys.count
            nodes.append(
                CoarseNode(
                    slabs: node.slabs, level: node.level,
                    index: PointIndex(sortedKeys: node.keys, weights: node.weights.map { Float($0) })))
        }
        return nodes
    }

    /// Closes the cell of `key` at `cells[level]`; it hands its slabs' weights to the next
    /// level's cell.
    private static func close(
        _ cells: inout [Cells], level: Int, key: UInt64, tree: Tree, handed: inout [(slab: Int, weight: Double)]
    ) {
        cells[level].close(key: key, tree: tree, handing: &handed)
        if level + 1 < cells.count {
            for (slab, weight) in handed { cells[level + 1].add(slab: slab, weight: weight) }
        }
        handed.removeAll(keepingCapacity: true)
    }

    /// The inner nodes of the binary tree over the slabs (a range split at its middle, the
    /// left half the larger), and the nodes above each slab.
    private struct Tree {
        var ranges: [Range<Int>] = []
        var counts: [Int] = []
        var above: [[Int]]

        init(slabCounts: [Int]) {
            above = slabCounts.map { _ in [] }
            visit(0..<slabCounts.count, slabCounts)
        }

        private mutating func visit(_ range: Range<Int>, _ slabCounts: [Int]) {
            guard range.count > 1 else { return }
            let node = ranges.count
            ranges.append(range)
            counts.append(slabCounts[range].reduce(0, +))
            for s in range { above[s].append(node) }
            let middle = (range.lowerBound + range.upperBound + 1) / 2
            visit(range.lowerBound..<middle, slabCounts)
            visit(middle..<range.upperBound, slabCounts)
        }
    }

    /// The cell of one level being summed, per slab, and each node's entries so far.
    private struct Cells {
        let level: Int
        var slabWeights: [Double]
        var slabsPresent: [Int] = []
        var present: [Bool]
        var keys: [[UInt64]]
        var weights: [[Double]]
        var nodeWeights: [Double]
        var nodesPresent: [Int] = []

        init(level: Int, slabs: Int, nodes: Int) {
            self.level = level
            slabWeights = Array(repeating: 0, count: slabs)
            present = Array(repeating: false, count: slabs)
            keys = Array(repeating: [], count: nodes)
            weights = Array(repeating: [], count: nodes)
            nodeWeights = Array(repeating: -1, count: nodes)
        }

        mutating func add(slab: Int, weight: Double) {
            if !present[slab] {
                present[slab] = true
                slabsPresent.append(slab)
            }
            slabWeights[slab] += weight
        }

        /// Ends the cell holding `key`: an entry for each node with a slab in it, and the
        /// slabs' weights in `handed`, for the next level's cell.
        mutating func close(key: UInt64, tree: Tree, handing handed: inout [(slab: Int, weight: Double)]) {
            guard !slabsPresent.isEmpty else { return }
            for slab in slabsPresent {
                let weight = slabWeights[slab]
                for node in tree.above[slab] {
                    if nodeWeights[node] < 0 {
                        nodeWeights[node] = 0
                        nodesPresent.append(node)
                    }
                    nodeWeights[node] += weight
                }
                handed.append((slab, weight))
                slabWeights[slab] = 0
                present[slab] = false
            }
            slabsPresent.removeAll(keepingCapacity: true)
            let cell = (key >> UInt64(2 * level)) << UInt64(2 * level)
            for node in nodesPresent {
                keys[node].append(cell)
                weights[node].append(nodeWeights[node])
                nodeWeights[node] = -1
            }
            nodesPresent.removeAll(keepingCapacity: true)
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
