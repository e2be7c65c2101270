/// The occupied cells of one quadtree level, each with its total weight: where a pixel is a
/// cell of this level and holds many points, a gather reads one entry instead of the run of
/// keys.
///
/// Entry `i` packs the cell's code (its keys shifted right by 2 × `level`, a Morton code of
/// the cell's column and row, below 2^32 since `level` ≥ 16) in the high 32 bits and the bits
/// of `Float(prefix[end] - prefix[start])` for the cell's run of keys in the low 32: the same
/// float a walk over the keys gives the pixel. Entries ascend by code; cells of zero weight
/// are left out.
struct CellSummary: Sendable {
    /// The quadtree level: cells of 2^level × 2^level units.
    let level: Int
    /// Code and weight bits of the occupied cells, ascending.
    let entries: ArraySlice<UInt64>

    /// The packed entry of a cell's code and weight.
    @inline(__always)
    static func entry(code: UInt64, weight: Double) -> UInt64 {
        code << 32 | UInt64(Float(weight).bitPattern)
    }
}

/// The cell summaries an index keeps: levels 16...24 (pixels from zoom 0 to 7 or 8) whose
/// cells are few enough, at most half the points, that a gather saves reading several keys
/// per pixel; together at most three quarters as many entries as points (6 bytes a point).
struct CellSummaries: Sendable {
    /// The finest level a summary can have; its cell codes fit in 32 bits.
    static let finestLevel = 16
    /// The coarsest level a summary can have: pixels at zoom 0, scale 1.
    static let coarsestLevel = 24

    /// The entries of every kept level, level after level (see ``CellSummary``).
    let entries: [UInt64]
    /// The range of `entries` of each level, by level − ``finestLevel``; `nil` for a level
    /// not kept.
    let ranges: [Range<Int>?]

    /// No summaries.
    init() {
        entries = []
        ranges = []
    }

    private init(entries: [UInt64], ranges: [Range<Int>?]) {
        self.entries = entries
        self.ranges = ranges
    }

    /// The summary whose cells are 2^`level` units on a side, if kept.
    func summary(level: Int) -> CellSummary? {
        let i = level - Self.finestLevel
        guard ranges.indices.contains(i), let range = ranges[i] else { return nil }
        return CellSummary(level: level, entries: entries[range])
    }

    /// The bytes the entries take.
    var byteCount: Int { entries.count * 8 }

    /// Summarises sorted keys and their running sums of weight (`prefix.count == keys.count + 1`).
    ///
    /// Picks the levels from the coarsest down while the entries fit the budget, then fills
    /// them in one pass. `cells` holds the number of distinct cells of every level 0...32
    /// (see ``RunStarts/cellCounts(of:)``).
    ///
    /// - Complexity: O(n) time, and memory for the entries kept (≤ 3n / 4 of 8 bytes).
    init(keys: UnsafeBufferPointer<UInt64>, prefix: UnsafeBufferPointer<Double>, cells: [Int]) {
        var sums = PrefixSums(prefix: prefix)
        self.init(keys: keys, sums: &sums, cells: cells)
    }

    /// Summarises sorted keys whose running sums of weight `sums` gives as the pass reaches
    /// them (the same sums as a prefix array of them: see ``RunningSums``).
    init<Sums: RunningSums>(keys: UnsafeBufferPointer<UInt64>, sums: inout Sums, cells: [Int]) {
        let n = keys.count
        guard n >= 64, cells.count == 33 else {
            self.init()
            return
        }
        var counts = [Int](repeating: 0, count: Self.coarsestLevel - Self.finestLevel + 1)
        var budget = 3 * n / 4
        var kept = [Bool](repeating: false, count: counts.count)
        for level in stride(from: Self.coarsestLevel, through: Self.finestLevel, by: -1) {
            let i = level - Self.finestLevel
            counts[i] = cells[level]
            if cells[level] <= n / 2 && cells[level] <= budget {
                kept[i] = true
                budget -= cells[level]
            }
        }
        let (entries, ranges) = Self.fill(keys: keys, sums: &sums, kept: kept, counts: counts)
        self.init(entries: entries, ranges: ranges)
    }

    /// The entries of the kept levels and the range of each: one pass over the keys, closing
    /// each level's cell where the next key leaves it.
    private static func fill<Sums: RunningSums>(
        keys: UnsafeBufferPointer<UInt64>, sums: inout Sums, kept: [Bool], counts: [Int]
    ) -> ([UInt64], [Range<Int>?]) {
        guard let finest = kept.firstIndex(of: true) else { return ([], []) }
        let levels = kept.count
        // Level i's entries start at offsets[i]; cells of zero weight leave slots unused.
        var offsets = [Int](repeating: 0, count: levels + 1)
        for i in 0..<levels { offsets[i + 1] = offsets[i] + (kept[i] ? counts[i] : 0) }
        var filled = Array(offsets[0..<levels])
        // Each level's open cell: its first key, and the running sum before it.
        var starts = [(key: Int, sum: Double)](repeating: (0, 0), count: levels)
        let n = keys.count
        var entries = [UInt64](repeating: 0, count: offsets[levels])
        entries.withUnsafeMutableBufferPointer { entries in
            filled.withUnsafeMutableBufferPointer { filled in
                starts.withUnsafeMutableBufferPointer { starts in
                    @inline(__always) func close(_ i: Int, end: Int, sum: Double) {
                        let start = starts[i]
                        let weight = sum - start.sum
                        if weight > 0 {
                            let code = keys[start.key] >> UInt64(2 * (finestLevel + i))
                            entries[filled[i]] = CellSummary.entry(code: code, weight: weight)
                            filled[i] += 1
                        }
                        starts[i] = (end, sum)
                    }
                    var previous = keys[0]
                    for k in 1..<n {
                        let key = keys[k]
                        let difference = key ^ previous
                        previous = key
                        // Levels up to `top` start a new cell at key k.
                        let top = min(coarsestLevel, (63 - difference.leadingZeroBitCount) >> 1) - finestLevel
                        if difference == 0 || top < finest { continue }
                        let sum = sums.sum(upTo: k)
                        for i in finest...top where kept[i] { close(i, end: k, sum: sum) }
                    }
                    let sum = sums.sum(upTo: n)
                    for i in finest..<levels where kept[i] { close(i, end: n, sum: sum) }
                }
            }
        }
        let ranges = (0..<levels).map { i in kept[i] ? offsets[i]..<filled[i] : nil }
        return (entries, ranges)
    }
}

/// The running sums of the weights of sorted keys, read by a pass over the keys: the sum of
/// the weights of keys `0..<k`, for `k` never decreasing. Whether read from a prefix array or
/// added up as the pass goes, they are the same doubles: `0`, then each sum the one before
/// plus the next weight as a `Double`.
protocol RunningSums {
    /// The sum of the weights of keys `0..<k`; `k` at least the last one asked.
    mutating func sum(upTo k: Int) -> Double
}

/// Running sums read from a prefix array (`prefix[k]`, the sum of keys `0..<k`).
struct PrefixSums: RunningSums {
    let prefix: UnsafeBufferPointer<Double>

    @inline(__always) func sum(upTo k: Int) -> Double { prefix[k] }
}
