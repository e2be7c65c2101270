/// Where each cell's run of keys starts, at fine levels whose cells hold many points each:
/// there a gather steps from one pixel's run to the next by reading the next start, instead
/// of galloping over the run, so that a pixel costs the same whatever its points.
///
/// Fine levels are those below ``CellSummaries/finestLevel`` (pixels from zoom 8 or 9 up to
/// 22), where a summary's cell codes would not fit in 32 bits. Points in such cells are
/// many only where data repeats positions (sensors, addresses, stops): for spread data the
/// cells are about as many as the points, and no level is kept.
struct RunStarts: Sendable {
    /// The levels a table can have: pixels of zoom 22 at 512 px up to zoom 9 at 256 px.
    static let levels = 1..<CellSummaries.finestLevel

    /// The run starts of every kept level, level after level: for each cell of the level
    /// that holds keys, the index of its first key, ascending.
    let starts: [UInt32]
    /// The range of `starts` of each level, by level − 1; `nil` for a level not kept.
    let ranges: [Range<Int>?]

    /// No tables.
    init() {
        starts = []
        ranges = []
    }

    /// The tables of sorted keys, keeping a level when its cells are at most an eighth of
    /// the keys (4 bytes a cell: at most half a byte a point), coarsest first, while all
    /// together stay within a quarter of the keys (1 byte a point).
    ///
    /// - Parameter cells: the number of distinct cells of every level 0...32 (see
    ///   ``cellCounts(of:)``).
    /// - Complexity: O(n × kept levels).
    init(keys: UnsafeBufferPointer<UInt64>, cells: [Int]) {
        let n = keys.count
        guard n >= 64, n <= Int(UInt32.max), cells.count == 33 else {
            self.init()
            return
        }
        var kept: [Int] = []
        var budget = n / 4
        for level in Self.levels.reversed() where cells[level] <= n / 8 && cells[level] <= budget {
            kept.append(level)
            budget -= cells[level]
        }
        guard !kept.isEmpty else {
            self.init()
            return
        }
        kept.reverse()
        var ranges = [Range<Int>?](repeating: nil, count: Self.levels.count)
        var offset = 0
        for level in kept {
            ranges[level - 1] = offset..<(offset + cells[level])
            offset += cells[level]
        }
        var starts = [UInt32](repeating: 0, count: offset)
        starts.withUnsafeMutableBufferPointer { starts in
            // Next free slot of each kept level, finest first; every level starts at key 0.
            var slots = kept.map { ranges[$0 - 1]?.lowerBound ?? 0 }
            for i in slots.indices {
                starts[slots[i]] = 0
                slots[i] += 1
            }
            for k in 1..<n {
                let difference = keys[k] ^ keys[k - 1]
                if difference == 0 { continue }
                // Key k starts a cell at every level up to `top`.
                let top = (63 - difference.leadingZeroBitCount) >> 1
                for i in kept.indices {
                    if kept[i] > top { break }
                    starts[slots[i]] = UInt32(truncatingIfNeeded: k)
                    slots[i] += 1
                }
            }
        }
        self.init(starts: starts, ranges: ranges)
    }

    private init(starts: [UInt32], ranges: [Range<Int>?]) {
        self.starts = starts
        self.ranges = ranges
    }

    /// The run starts of `level`, if kept.
    func starts(level: Int) -> ArraySlice<UInt32>? {
        guard ranges.indices.contains(level - 1), let range = ranges[level - 1] else { return nil }
        return starts[range]
    }

    /// The bytes the tables take.
    var byteCount: Int { starts.count * 4 }

    /// The number of distinct cells of sorted keys at every level 0...32 (level 32: one cell).
    ///
    /// Consecutive keys lie in different cells of level ℓ exactly when their highest
    /// differing bit is at 2ℓ or above.
    ///
    /// - Complexity: O(n).
    static func cellCounts(of keys: UnsafeBufferPointer<UInt64>) -> [Int] {
        var changes = [Int](repeating: 0, count: 33)
        for i in keys.indices.dropFirst() {
            let difference = keys[i] ^ keys[i - 1]
            if difference != 0 { changes[(63 - difference.leadingZeroBitCount) >> 1] += 1 }
        }
        return cellCounts(changes: changes, count: keys.count)
    }

    /// ``cellCounts(of:)`` from `changes`, counted while reading `count` sorted keys some other
    /// way: for each level 0...32, how many consecutive keys first differ in a bit of that
    /// level, `(63 - (a ^ b).leadingZeroBitCount) >> 1` (equal keys not counted).
    static func cellCounts(changes: [Int], count: Int) -> [Int] {
        var cells = [Int](repeating: 0, count: 33)
        var running = count == 0 ? 0 : 1
        for level in stride(from: 32, through: 0, by: -1) {
            running += level < 32 ? changes[level] : 0
            cells[level] = running
        }
        return cells
    }
}
