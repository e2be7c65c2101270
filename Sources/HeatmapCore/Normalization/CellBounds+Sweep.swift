import Dispatch

extension CellBounds {
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
        // Two parts of rows, split at the row holding the middle cell, on two cores; the
        // first part's pairs that reach into the second part's rows go to a spill buffer.
        let split = rowStarts.firstIndex { $0 >= cells.count / 2 } ?? rowCount
        let parts =
            cells.count >= 200_000 && split > 0 && split < rowCount ? [0..<split, split..<rowCount] : [0..<rowCount]
        let limit = parts.count == 2 ? rowStarts[split] : cells.count
        var spill = [Float](
            repeating: 0, count: parts.count == 2 ? rowStarts[min(rowCount, split + Int(reach))] - limit : 0)
        bounds.withUnsafeMutableBufferPointer { out in
            spill.withUnsafeMutableBufferPointer { extra in
                cells.withUnsafeBufferPointer { c in
                    weights.withUnsafeBufferPointer { w in
                        rowStarts.withUnsafeBufferPointer { starts in
                            taps.withUnsafeBufferPointer { k in
                                nonisolated(unsafe) let (out, extra, c, w, starts, k) = (out, extra, c, w, starts, k)
                                DispatchQueue.concurrentPerform(iterations: parts.count) { part in
                                    let pairs = Pairs(
                                        cells: c, weights: w, rowStarts: starts, taps: k, out: out, spill: extra,
                                        limit: part == 0 ? limit : Int.max)
                                    for r in parts[part] { pairs.add(row: r) }
                                }
                            }
                        }
                    }
                }
            }
            for k in spill.indices { out[limit + k] += spill[k] }
            cells.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in
                    func column(_ i: Int) -> UInt64 { c[i] & 0xFFFF_FFFF }
                    func add(_ i: Int, _ j: Int, _ tap: Float) {
                        out[i] += w[j] * tap
                        out[j] += w[i] * tap
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

    /// The bound of each cell of `targets` (packed as ``cells`` is, ascending; occupied or
    /// not) from the occupied cells within `taps.count - 1` cells.
    ///
    /// - Parameter taps: the largest kernel value between a pixel of a cell and a point
    ///   d cells away (along one axis), for d = 0 ... reach. The world must be more than
    ///   `2 * reach + 1` cells wide. Sums are in single precision, a row's and then the
    ///   rows' (see ``MaximumPlan/margin(reach:)``).
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

/// The pairs of occupied cells within reach that start in one row, for
/// ``CellBounds/boundsOfOccupiedCells(taps:)``: with the cells after it in the row, and
/// with the rows below.
private struct Pairs {
    let cells: UnsafeBufferPointer<UInt64>
    let weights: UnsafeBufferPointer<Float>
    let rowStarts: UnsafeBufferPointer<Int>
    let taps: UnsafeBufferPointer<Float>
    let out: UnsafeMutableBufferPointer<Float>
    /// Where sums for cells from `limit` on go, at `index - limit`.
    let spill: UnsafeMutableBufferPointer<Float>
    let limit: Int

    @inline(__always) func column(_ i: Int) -> UInt64 { cells[i] & 0xFFFF_FFFF }

    @inline(__always) func add(_ i: Int, _ j: Int, _ tap: Float) {
        out[i] += weights[j] * tap
        if j < limit { out[j] += weights[i] * tap } else { spill[j - limit] += weights[i] * tap }
    }

    /// Adds the pairs whose first cell lies in row `r` (an index into `rowStarts`).
    func add(row r: Int) {
        let reach = UInt64(taps.count - 1)
        let rowCount = rowStarts.count - 1
        let y = cells[rowStarts[r]] >> 32
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
        while n < rowCount && cells[rowStarts[n]] >> 32 <= y + reach {
            let below = rowStarts[n]..<rowStarts[n + 1]
            let factor = taps[Int((cells[rowStarts[n]] >> 32) - y)]
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
}
