import Dispatch

extension PointIndex: CellSource {
    /// The cells `query` asks for, from the summary of the level (see
    /// ``summarizedCells(level:in:of:)``) or from the Morton runs of the keys (see
    /// ``occupiedCells(level:)``), in Morton order unless a limit ranks them.
    package func occupiedCells(_ query: CellQuery) -> OccupiedCells {
        let codes = query.area.map { area in
            MaximumSearch.sortedWithoutRepeats(
                area.map { Morton.key(x: UInt32(truncatingIfNeeded: $0), y: UInt32(truncatingIfNeeded: $0 >> 32)) })
        }
        let found =
            summarizedCells(level: query.level, in: codes, of: query.areaLevel)
            ?? (codes.map { occupiedCells(level: query.level, in: $0, of: query.areaLevel) }
                ?? occupiedCells(level: query.level))
        return OccupiedCells(cells: found.cells, weights: found.weights, isMortonOrdered: true)
            .kept(minimum: query.minimum, limit: query.limit)
    }

    /// A pass over the keys a question, and the cells of every level counted.
    package var cellCosts: CellCosts { CellCosts(occupied: (cellCounts, count)) }

    /// M(z), exact (see `MaximumSearch`): ``WeightSource/maximumIntensity(space:kernel:)``
    /// without a source's failure.
    public func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) -> Float {
        MaximumSearch.run(over: self, space: space, kernel: kernel).value
    }

    /// ``occupiedCells(level:)``, in the whole world or inside `codes` (Morton codes of cells
    /// of `coarseLevel`, ascending), from a summary: the level's, or level 24's summed up for a
    /// coarser level; `nil` when none is kept. A summary's weights are the nearest floats of
    /// its cells' sums, so each is taken one float up.
    ///
    /// - Complexity: O(e) for the e entries read, plus O(log e) for each code.
    func summarizedCells(level: Int, in codes: [UInt64]?, of coarseLevel: Int) -> (cells: [UInt64], weights: [Float])? {
        guard let summary = summaries.summary(level: min(level, CellSummaries.coarsestLevel)) else { return nil }
        let up = UInt64(2 * (level - summary.level))
        var cells: [UInt64] = []
        var weights: [Float] = []
        var sum = 0.0
        var current = UInt64.max
        func close() {
            guard current != .max, sum > 0 else { return }
            cells.append(UInt64(Morton.y(current)) << 32 | UInt64(Morton.x(current)))
            weights.append(Float(roundingUp: sum))
        }
        summary.entries.withUnsafeBufferPointer { entries in
            func add(_ range: Range<Int>) {
                for i in range {
                    let code = (entries[i] >> 32) >> up
                    if code != current {
                        close()
                        (current, sum) = (code, 0)
                    }
                    sum += Double(Float(bitPattern: UInt32(truncatingIfNeeded: entries[i])).nextUp)
                }
            }
            guard let codes else { return add(entries.indices) }
            let shift = UInt64(2 * (coarseLevel - summary.level)) + 32
            var start = 0
            for code in codes {
                start = entries.firstIndex(atLeast: code << shift, in: start..<entries.count)
                let end =
                    (code + 1) >> (64 - shift) == 0
                    ? entries.firstIndex(atLeast: (code + 1) << shift, in: start..<entries.count) : entries.count
                add(start..<end)
                start = end
            }
        }
        close()
        return (cells, weights)
    }

    /// The cells of 2^`level` × 2^`level` units that hold positive weight, in Morton order,
    /// as `row << 32 | column` in cells, with their weights rounded up to `Float`. Over a
    /// million points and below level 22, the two halves of the keys (split between cells) go
    /// to two cores.
    ///
    /// - Complexity: O(c · log(n / c)) for c cells: each cell's run of keys ends where a
    ///   gallop from its first key finds the next cell's first key.
    func occupiedCells(level: Int) -> (cells: [UInt64], weights: [Float]) {
        let shift = UInt64(2 * level)
        return keys.withUnsafeBufferPointer { k in
            prefix.withUnsafeBufferPointer { p in
                // Coarse levels have few cells: one pass, no threads to wake.
                guard k.count >= 1_000_000, level < 22 else {
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
