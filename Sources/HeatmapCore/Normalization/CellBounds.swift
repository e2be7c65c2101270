import Dispatch

/// The occupied cells of one level that a source answered (see ``CellQuery``), row by row, and
/// upper bounds on the intensity of the pixels of any cell from them: the sweep of M(z)'s
/// search.
///
/// A pixel's intensity is a sum over the points within the kernel's reach, each weighted by
/// k(dx) · k(dy) ≤ 1. For the pixels whose first unit lies in a cell, the points of a cell
/// `dx`, `dy` cells away weigh at most `taps[|dx|] · taps[|dy|]` (see ``MaximumPlan``); the
/// weighted sum over the occupied cells within `taps.count - 1` cells is the cell's bound.
///
/// The cells are sorted by row (columns ascending in each row), then each row of cells asked
/// about is swept beside the rows of occupied cells within reach, with one cursor each.
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

    /// The cells of `answer`, of `level` (< 32).
    ///
    /// - Complexity: O(c) per 11 bits of rows spanned to sort c cells in Morton order, O(c)
    ///   per 11 bits of rows and columns otherwise.
    init(_ answer: OccupiedCells, level: Int) {
        precondition((0..<32).contains(level))
        columns = UInt64(1) << UInt64(32 - level)
        (cells, weights) = (answer.cells, answer.weights)
        if answer.isMortonOrdered {
            Self.sortByRow(&cells, &weights)
        } else {
            RadixSort.sort(keys: &cells, weights: &weights)
        }
        rowStarts = cells.withUnsafeBufferPointer(Self.rowStarts)
    }

    /// The column and row of a packed cell.
    static func position(_ cell: UInt64) -> (x: UInt64, y: UInt64) {
        (cell & 0xFFFF_FFFF, cell >> 32)
    }

    /// Where each row of row-major packed cells starts, and their count last.
    static func rowStarts(_ cells: UnsafeBufferPointer<UInt64>) -> [Int] {
        var starts: [Int] = []
        for i in cells.indices where i == 0 || cells[i] >> 32 != cells[i - 1] >> 32 { starts.append(i) }
        starts.append(cells.count)
        return starts
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
        let lowest = low
        let passes = (bits + 10) / 11
        let digitBits = (bits + passes - 1) / passes
        let buckets = 1 << digitBits
        let count = cells.count
        // Over 200,000 cells, two halves on two cores: each counts its digits, then places
        // its cells after those of the same digit from the first half (a stable sort).
        let parts = count >= 200_000 ? 2 : 1
        let halves = (0..<parts).map { (count * $0 / parts)..<(count * ($0 + 1) / parts) }
        var sortedCells = [UInt64](repeating: 0, count: count)
        var sortedWeights = [Float](repeating: 0, count: count)
        var table = [Int](repeating: 0, count: buckets * parts)
        for pass in 0..<passes {
            let shift = UInt64(pass * digitBits)
            cells.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in
                    sortedCells.withUnsafeMutableBufferPointer { sc in
                        sortedWeights.withUnsafeMutableBufferPointer { sw in
                            table.withUnsafeMutableBufferPointer { t in
                                nonisolated(unsafe) let (c, w, sc, sw, t) = (c, w, sc, sw, t)
                                @Sendable @inline(__always) func digit(_ i: Int) -> Int {
                                    Int(truncatingIfNeeded: ((c[i] >> 32) - lowest) >> shift) & (buckets - 1)
                                }
                                t.update(repeating: 0)
                                DispatchQueue.concurrentPerform(iterations: parts) { part in
                                    for i in halves[part] { t[part * buckets + digit(i)] += 1 }
                                }
                                var running = 0
                                for d in 0..<buckets {
                                    for part in 0..<parts {
                                        let n = t[part * buckets + d]
                                        t[part * buckets + d] = running
                                        running += n
                                    }
                                }
                                DispatchQueue.concurrentPerform(iterations: parts) { part in
                                    for i in halves[part] {
                                        let slot = t[part * buckets + digit(i)]
                                        t[part * buckets + digit(i)] = slot + 1
                                        sc[slot] = c[i]
                                        sw[slot] = w[i]
                                    }
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
