import Dispatch

extension PointIndex {
    /// Whether more than 62% of the points are alone in their cell of 2^`level` × 2^`level`
    /// units (counting cells, galloping over each cell's run of keys, and stopping once it
    /// is sure): where the search for M(z) does better from ``CellBounds`` than from the root.
    ///
    /// - Complexity: O(c · log(n / c)) for c cells.
    func isSparse(atLevel level: Int) -> Bool {
        let shift = UInt64(2 * level)
        let needed = keys.count * 31 / 50
        return keys.withUnsafeBufferPointer { k in
            var cells = 0
            var i = 0
            while i < k.count {
                cells += 1
                if cells > needed { return true }
                let next = (k[i] >> shift) + 1
                i = next >> (64 - shift) == 0 ? k.firstIndex(atLeast: next << shift, from: i + 1) : k.count
                if cells + (k.count - i) <= needed { return false }
            }
            return false
        }
    }

    /// The cells of 2^`level` × 2^`level` units that hold positive weight, in Morton order,
    /// as `row << 32 | column` in cells, with their weights rounded up to `Float`. Over a
    /// million points, the two halves of the keys (split between cells) go to two cores.
    ///
    /// - Complexity: O(c · log(n / c)) for c cells: each cell's run of keys ends where a
    ///   gallop from its first key finds the next cell's first key.
    func occupiedCells(level: Int) -> (cells: [UInt64], weights: [Float]) {
        let shift = UInt64(2 * level)
        return keys.withUnsafeBufferPointer { k in
            prefix.withUnsafeBufferPointer { p in
                guard k.count >= 1_000_000 else {
                    var cells: [UInt64] = []
                    var weights: [Float] = []
                    Self.appendCells(k, p, 0..<k.count, shift: shift, to: &cells, &weights)
                    return (cells, weights)
                }
                // The second half starts with the first key of a cell.
                let split = k.firstIndex(atLeast: (k[k.count / 2] >> shift) << shift, from: 0)
                let halves = [0..<split, split..<k.count]
                // Each half is written by one thread only.
                nonisolated(unsafe) var first: (cells: [UInt64], weights: [Float]) = ([], [])
                nonisolated(unsafe) var second: (cells: [UInt64], weights: [Float]) = ([], [])
                nonisolated(unsafe) let (keys, sums) = (k, p)
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    // Room for the whole answer in the first half's arrays: no copy as they grow.
                    let room = i == 0 ? keys.count : halves[1].count
                    var cells: [UInt64] = []
                    var weights: [Float] = []
                    cells.reserveCapacity(room)
                    weights.reserveCapacity(room)
                    Self.appendCells(keys, sums, halves[i], shift: shift, to: &cells, &weights)
                    if i == 0 { first = (cells, weights) } else { second = (cells, weights) }
                }
                first.cells += second.cells
                first.weights += second.weights
                return first
            }
        }
    }

    /// ``occupiedCells(level:)`` inside the cells `codes` (their Morton codes, ascending) of
    /// the coarser `coarseLevel` only.
    ///
    /// - Complexity: O(log n) to find each coarse cell's keys (galloping on from the last),
    ///   and O(log(n / c)) for each of the c cells found in them.
    func occupiedCells(level: Int, in codes: [UInt64], of coarseLevel: Int) -> (cells: [UInt64], weights: [Float]) {
        let shift = UInt64(2 * level)
        let coarseShift = UInt64(2 * coarseLevel)
        var cells: [UInt64] = []
        var weights: [Float] = []
        keys.withUnsafeBufferPointer { k in
            prefix.withUnsafeBufferPointer { p in
                var i = 0
                for code in codes {
                    i = k.firstIndex(atLeast: code << coarseShift, from: i)
                    let next = code + 1
                    let end =
                        next >> (64 - coarseShift) == 0 ? k.firstIndex(atLeast: next << coarseShift, from: i) : k.count
                    if i < end { Self.appendCells(k, p, i..<end, shift: shift, to: &cells, &weights) }
                    i = end
                }
            }
        }
        return (cells, weights)
    }

    /// Appends the cells of ``occupiedCells(level:)`` over the keys `range`, which starts
    /// with a cell's first key, to `cells` and `weights`.
    private static func appendCells(
        _ k: UnsafeBufferPointer<UInt64>, _ p: UnsafeBufferPointer<Double>, _ range: Range<Int>, shift: UInt64,
        to cells: inout [UInt64], _ weights: inout [Float]
    ) {
        var i = range.lowerBound
        while i < range.upperBound {
            let cell = k[i] >> shift
            let next = cell + 1
            let j = next >> (64 - shift) == 0 ? k.firstIndex(atLeast: next << shift, from: i + 1) : k.count
            let weight = p[j] - p[i]
            if weight > 0 {
                var rounded = Float(weight)
                if Double(rounded) < weight { rounded = rounded.nextUp }
                cells.append(UInt64(Morton.y(cell)) << 32 | UInt64(Morton.x(cell)))
                weights.append(rounded)
            }
            i = j
        }
    }
}
