import Dispatch

/// The occupied cells of one quadtree level, row by row, and upper bounds on the intensity
/// of the pixels of any cell, from one pass over the index: the seed of the search for
/// M(z) at fine zooms.
///
/// A pixel's intensity is a sum over the points within the kernel's reach, each weighted by
/// k(dx) · k(dy) ≤ 1. For the pixels whose first unit lies in a cell, the points of a cell
/// `dx`, `dy` cells away weigh at most `taps[|dx|] · taps[|dy|]`, the kernel at the smallest
/// distance between pixels of the two cells; the weighted sum over the occupied cells within
/// `taps.count - 1` cells is the cell's bound.
///
/// Made in three steps: the occupied cells and their weights in Morton order (each cell's
/// points are one run of keys, found by galloping, its weight one subtraction of running
/// sums); a stable sort by row, which leaves each row's cells in column order because the
/// Morton order is monotonic along a row; and, for bounds, a sweep that walks each row of
/// cells asked about beside the rows of occupied cells within reach, with one cursor each.
/// Columns wrap around the antimeridian; rows do not. Large inputs are split between cores.
struct CellBounds: Sendable {
    /// The occupied cells, `row << 32 | column` in cells of the level, ascending (row-major).
    private(set) var cells: [UInt64] = []
    /// The weight in each occupied cell, rounded up.
    private(set) var weights: [Float] = []
    /// Where each row of ``cells`` starts, and `cells.count` last.
    private(set) var rowStarts: [Int] = []
    /// The number of cells across the world (and down it).
    let columns: UInt64

    /// The occupied cells of `level` (`level` < 32) of `index`.
    ///
    /// - Complexity: O(c · log(n / c)) to find the c occupied cells among n points, then
    ///   O(c) per 11 bits of rows spanned to sort them.
    init(index: PointIndex, level: Int) {
        precondition((0..<32).contains(level))
        columns = UInt64(1) << UInt64(32 - level)
        (cells, weights) = index.occupiedCells(level: level)
        Self.sortByRow(&cells, &weights)
        rowStarts = cells.withUnsafeBufferPointer(Self.rowStarts)
    }

    /// The occupied cells of `level` that lie in the cells of the coarser `coarseLevel` within
    /// one cell of `near` (packed row-major cells of `coarseLevel`): all the cells within
    /// reach of the finer cells of `near`, read from the index there alone.
    ///
    /// - Complexity: O(c · log(n / c)) for the c cells read, plus the sort.
    init(index: PointIndex, level: Int, near: [UInt64], coarseLevel: Int) {
        precondition((0..<coarseLevel).contains(level) && coarseLevel < 32)
        columns = UInt64(1) << UInt64(32 - level)
        let around = MaximumSearch.neighbourhoods(of: near, columns: 1 << (32 - coarseLevel))
        let codes = MaximumSearch.sortedWithoutRepeats(
            around.map { Morton.key(x: UInt32(truncatingIfNeeded: $0), y: UInt32(truncatingIfNeeded: $0 >> 32)) })
        (cells, weights) = index.occupiedCells(level: level, in: codes, of: coarseLevel)
        Self.sortByRow(&cells, &weights)
        rowStarts = cells.withUnsafeBufferPointer(Self.rowStarts)
    }

    /// The column and row of a packed cell.
    static func position(_ cell: UInt64) -> (x: UInt64, y: UInt64) {
        (cell & 0xFFFF_FFFF, cell >> 32)
    }

    /// The bound of each occupied cell: the same as `bounds(of: cells, taps: taps)`, with
    /// each pair of cells within reach met once, from the first, and added to both (the
    /// kernel is symmetric), so each row is read beside the rows below it only.
    ///
    /// - Complexity: O(c · reach) plus the pairs of cells within reach.
    func boundsOfOccupiedCells(taps: [Float]) -> [Float] {
        precondition(!taps.isEmpty && taps[0] == 1 && columns > UInt64(2 * taps.count - 1))
        let reach = UInt64(taps.count - 1)
        var bounds = weights
        let rowCount = rowStarts.count - 1
        bounds.withUnsafeMutableBufferPointer { out in
            cells.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in
                    func column(_ i: Int) -> UInt64 { c[i] & 0xFFFF_FFFF }
                    func add(_ i: Int, _ j: Int, _ tap: Float) {
                        out[i] += w[j] * tap
                        out[j] += w[i] * tap
                    }
                    for r in 0..<rowCount {
                        let y = c[rowStarts[r]] >> 32
                        let row = rowStarts[r]..<rowStarts[r + 1]
                        // Along the row: each cell with the cells after it within reach.
                        for i in row {
                            var j = i + 1
                            while j < row.upperBound && column(j) - column(i) <= reach {
                                add(i, j, taps[Int(column(j) - column(i))])
                                j += 1
                            }
                        }
                        // Rows below within reach, with a cursor each.
                        var n = r + 1
                        while n < rowCount && c[rowStarts[n]] >> 32 <= y + reach {
                            let below = rowStarts[n]..<rowStarts[n + 1]
                            let factor = taps[Int((c[rowStarts[n]] >> 32) - y)]
                            var cursor = below.lowerBound
                            for i in row {
                                let x = column(i)
                                while cursor < below.upperBound && column(cursor) + reach < x { cursor += 1 }
                                var j = cursor
                                while j < below.upperBound && column(j) <= x + reach {
                                    add(i, j, factor * taps[Int(column(j) > x ? column(j) - x : x - column(j))])
                                    j += 1
                                }
                            }
                            n += 1
                        }
                    }
                    // Across the antimeridian: cells near the first column of one row with
                    // cells near the last column of a row within reach.
                    for r in 0..<rowCount {
                        let y = c[rowStarts[r]] >> 32
                        var n = r
                        while n < rowCount && c[rowStarts[n]] >> 32 <= y + reach {
                            let factor = taps[Int((c[rowStarts[n]] >> 32) - y)]
                            for (a, b) in n == r ? [(r, r)] : [(r, n), (n, r)] {
                                var i = rowStarts[a]
                                while i < rowStarts[a + 1] && column(i) < reach {
                                    var j = rowStarts[b + 1] - 1
                                    while j >= rowStarts[b] && column(j) + reach >= column(i) + columns {
                                        add(i, j, factor * taps[Int(column(i) + columns - column(j))])
                                        j -= 1
                                    }
                                    i += 1
                                }
                            }
                            n += 1
                        }
                    }
                }
            }
        }
        return bounds
    }

    /// Where each row of row-major packed cells starts, and their count last.
    static func rowStarts(_ cells: UnsafeBufferPointer<UInt64>) -> [Int] {
        var starts: [Int] = []
        for i in cells.indices where i == 0 || cells[i] >> 32 != cells[i - 1] >> 32 { starts.append(i) }
        starts.append(cells.count)
        return starts
    }

    /// The bound of each cell of `targets` (packed as ``cells`` is, ascending; occupied or
    /// not) from the occupied cells within `taps.count - 1` cells.
    ///
    /// - Parameter taps: the largest kernel value between a pixel of a cell and a point
    ///   d cells away (along one axis), for d = 0 ... reach. The world must be more than
    ///   `2 * reach + 1` cells wide. Sums are in single precision: the search adds a margin
    ///   of 1e-5 to every bound, more than the rounding of (2 · reach + 1)² terms for the
    ///   reaches it uses (at most 2).
    /// - Complexity: O(t · (2 · reach + 1)) for t targets, plus the occupied cells met.
    func bounds(of targets: [UInt64], taps: [Float]) -> [Float] {
        precondition(!taps.isEmpty && columns > UInt64(2 * taps.count - 1))
        let targetRows = targets.withUnsafeBufferPointer(Self.rowStarts)
        let rowCount = targetRows.count - 1
        let parts = targets.count >= 100_000 ? 2 : 1
        return [Float](unsafeUninitializedCapacity: targets.count) { buffer, count in
            buffer.initialize(repeating: 0)
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                targets.withUnsafeBufferPointer { t in
                    cells.withUnsafeBufferPointer { c in
                        weights.withUnsafeBufferPointer { w in
                            taps.withUnsafeBufferPointer { k in
                                rowStarts.withUnsafeBufferPointer { s in
                                    let sweep = Sweep(
                                        targets: t, cells: c, weights: w, sourceRows: s, columns: columns, taps: k)
                                    for r in (rowCount * part / parts)..<(rowCount * (part + 1) / parts) {
                                        sweep.add(targetRows[r]..<targetRows[r + 1], into: out)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            count = targets.count
        }
    }

    /// Stable counting sorts on the row bits, at most 11 at a time (few enough buckets to
    /// stay in cache).
    private static func sortByRow(_ cells: inout [UInt64], _ weights: inout [Float]) {
        guard let first = cells.first else { return }
        var low = first >> 32
        var high = low
        for c in cells {
            low = min(low, c >> 32)
            high = max(high, c >> 32)
        }
        let bits = 64 - (high - low).leadingZeroBitCount
        guard bits > 0 else { return }
        let passes = (bits + 10) / 11
        let digitBits = (bits + passes - 1) / passes
        let mask = (1 << digitBits) - 1
        var sortedCells = [UInt64](repeating: 0, count: cells.count)
        var sortedWeights = [Float](repeating: 0, count: cells.count)
        var offsets = [Int](repeating: 0, count: 1 << digitBits)
        for pass in 0..<passes {
            let shift = UInt64(pass * digitBits)
            cells.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in
                    sortedCells.withUnsafeMutableBufferPointer { sc in
                        sortedWeights.withUnsafeMutableBufferPointer { sw in
                            offsets.withUnsafeMutableBufferPointer { o in
                                o.update(repeating: 0)
                                for cell in c { o[Int(truncatingIfNeeded: ((cell >> 32) - low) >> shift) & mask] += 1 }
                                var running = 0
                                for d in o.indices {
                                    let count = o[d]
                                    o[d] = running
                                    running += count
                                }
                                for i in c.indices {
                                    let digit = Int(truncatingIfNeeded: ((c[i] >> 32) - low) >> shift) & mask
                                    sc[o[digit]] = c[i]
                                    sw[o[digit]] = w[i]
                                    o[digit] += 1
                                }
                            }
                        }
                    }
                }
            }
            swap(&cells, &sortedCells)
            swap(&weights, &sortedWeights)
        }
    }
}

/// One pass of ``CellBounds/bounds(of:taps:)`` over buffers.
private struct Sweep {
    let targets: UnsafeBufferPointer<UInt64>
    let cells: UnsafeBufferPointer<UInt64>
    let weights: UnsafeBufferPointer<Float>
    /// Where each row of `cells` starts, and `cells.count` last.
    let sourceRows: UnsafeBufferPointer<Int>
    let columns: UInt64
    let taps: UnsafeBufferPointer<Float>
    var reach: UInt64 { UInt64(taps.count - 1) }

    @inline(__always) func column(_ i: Int) -> UInt64 { cells[i] & 0xFFFF_FFFF }
    @inline(__always) func row(_ r: Int) -> UInt64 { cells[sourceRows[r]] >> 32 }

    /// Adds to `out` the bounds of the targets of one row, `targetRow`.
    func add(_ targetRow: Range<Int>, into out: UnsafeMutableBufferPointer<Float>) {
        let y = targets[targetRow.lowerBound] >> 32
        let rowCount = sourceRows.count - 1
        // The first occupied row within reach, by bisection.
        var low = 0
        var high = rowCount
        while low < high {
            let middle = (low + high) / 2
            if row(middle) + reach < y { low = middle + 1 } else { high = middle }
        }
        var n = low
        while n < rowCount && row(n) <= y + reach {
            let neighbours = sourceRows[n]..<sourceRows[n + 1]
            let sourceY = row(n)
            let factor = taps[Int(y > sourceY ? y - sourceY : sourceY - y)]
            var cursor = neighbours.lowerBound
            for i in targetRow {
                let x = targets[i] & 0xFFFF_FFFF
                while cursor < neighbours.upperBound && column(cursor) + reach < x { cursor += 1 }
                var sum: Float = 0
                var j = cursor
                while j < neighbours.upperBound {
                    let c = column(j)
                    guard c <= x + reach else { break }
                    sum += weights[j] * taps[Int(c > x ? c - x : x - c)]
                    j += 1
                }
                if x < reach || x + reach >= columns { sum += wrapped(x, neighbours) }
                out[i] += sum * factor
            }
            n += 1
        }
    }

    /// The part of a target's sum from the cells of one row across the antimeridian.
    func wrapped(_ x: UInt64, _ neighbours: Range<Int>) -> Float {
        var sum: Float = 0
        if x < reach {
            var k = neighbours.upperBound - 1
            while k >= neighbours.lowerBound && column(k) + reach >= x + columns {
                sum += weights[k] * taps[Int(x + columns - column(k))]
                k -= 1
            }
        }
        if x + reach >= columns {
            var k = neighbours.lowerBound
            while k < neighbours.upperBound && column(k) + columns <= x + reach {
                sum += weights[k] * taps[Int(column(k) + columns - x)]
                k += 1
            }
        }
        return sum
    }
}

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
