import Synchronization

/// How many rows the summaries' finest cells hold around a tile, read a block of 16 × 16 cells
/// at a time and kept a short while: what lets a sparse tile's key ranges be merged into one
/// or a few (see ``KeyRanges/merging(_:occupancy:)``), one B-tree descent where there were 16.
///
/// Only the tile statement's speed depends on it, never its answer: merged ranges still cover
/// every range they came from (the statement filters the exact rectangle), so counts gone
/// stale through later writes make a tile read more rows than it needs, never miss one. Kept
/// for ``lifetime`` after it was read, then read again.
final class CellOccupancy: Sendable {
    /// How long a block read stays in use.
    static let lifetime: Duration = .seconds(30)
    /// The most blocks kept; past it, all are dropped.
    static let capacity = 4096
    /// A block holds the cells of the level 4 above the summaries' finest (16 × 16 cells).
    static let blockBits = 4

    /// One block: its cells' prefixes (the key shifted by twice the level) in order, and the
    /// rows of all cells up to each one.
    struct Block: Sendable {
        var prefixes: [UInt64]
        var cumulative: [Int]
        var readAt: ContinuousClock.Instant
    }

    private let blocks = Mutex<[UInt64: Block]>([:])

    /// The rows held by the finest cells (of `level`, read from `cells`) whose prefixes lie in
    /// `low...high`, read from the blocks it spans (at most `maximumBlocks` of them, else
    /// `nil`); `nil` when they cannot be read or a cell's row count is unknown.
    func rows(
        prefixes low: UInt64, _ high: UInt64, level: Int, cells: String, on connection: PostgresConnection,
        maximumBlocks: UInt64 = 16
    ) -> Int? {
        guard low <= high else { return 0 }
        let shift = UInt64(2 * Self.blockBits)
        let first = low >> shift
        let last = high >> shift
        guard last - first < maximumBlocks else { return nil }
        let now = ContinuousClock.now
        var known: [UInt64: Block] = [:]
        blocks.withLock { stored in
            for block in first...last {
                if let found = stored[block], now - found.readAt < Self.lifetime { known[block] = found }
            }
        }
        if known.count < Int(last - first + 1) {
            guard let read = read(blocks: first...last, level: level, cells: cells, on: connection, at: now) else {
                return nil
            }
            known = read
            blocks.withLock { stored in
                if stored.count + read.count > Self.capacity { stored.removeAll() }
                stored.merge(read) { $1 }
            }
        }
        var total = 0
        for block in first...last {
            guard let found = known[block] else { return nil }
            total += Self.rows(in: found, from: max(low, block << shift), to: min(high, (block << shift) | 0xFF))
        }
        return total
    }

    /// The rows of `block`'s cells with prefixes in `low...high`.
    static func rows(in block: Block, from low: UInt64, to high: UInt64) -> Int {
        func before(_ prefix: UInt64) -> Int {
            // The number of cells with a prefix below `prefix`.
            var lower = 0
            var upper = block.prefixes.count
            while lower < upper {
                let middle = (lower + upper) / 2
                if block.prefixes[middle] < prefix { lower = middle + 1 } else { upper = middle }
            }
            return lower
        }
        let start = before(low)
        let end = high == .max ? block.prefixes.count : before(high + 1)
        guard end > start else { return 0 }
        return block.cumulative[end - 1] - (start > 0 ? block.cumulative[start - 1] : 0)
    }

    /// Reads the cells of `blocks` in one statement; `nil` when it fails or a cell's row count
    /// is unknown (a table summarised before rows were counted keeps 0 there).
    private func read(
        blocks range: ClosedRange<UInt64>, level: Int, cells: String, on connection: PostgresConnection,
        at now: ContinuousClock.Instant
    ) -> [UInt64: Block]? {
        let shift = UInt64(2 * Self.blockBits)
        let low = range.lowerBound << shift
        let high = (range.upperBound << shift) | 0xFF
        // Prefixes of level 1 and up are below 2^62, positive as stored.
        guard high < 1 << 62,
            let result = try? connection.executePrepared(
                "SELECT key, rows, weight::float8 FROM \(cells) WHERE level = $1::int2 AND key BETWEEN $2::int8 "
                    + "AND $3::int8 ORDER BY key",
                ["\(level)", "\(low)", "\(high)"], binary: true)
        else { return nil }
        var read: [UInt64: Block] = [:]
        for block in range { read[block] = Block(prefixes: [], cumulative: [], readAt: now) }
        for row in 0..<result.rowCount {
            guard let key = result.int64(row, 0), key >= 0, let rows = result.int64(row, 1),
                let weight = result.double(row, 2), rows >= 0, rows < 1 << 40, rows > 0 || weight <= 0
            else { return nil }
            let prefix = UInt64(key)
            let block = prefix >> shift
            guard var found = read[block] else { return nil }
            found.prefixes.append(prefix)
            found.cumulative.append((found.cumulative.last ?? 0) + Int(rows))
            read[block] = found
        }
        return read
    }
}
