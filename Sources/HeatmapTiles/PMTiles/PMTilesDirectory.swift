import HeatmapKit

/// One entry of a PMTiles v3 directory: a run of `runLength` tiles from `tileID` that share the
/// bytes at `offset` (tile data), or with `runLength` 0 a leaf directory at `offset`.
struct PMTilesEntry: Sendable, Hashable {
    var tileID: UInt64
    var offset: UInt64
    var length: UInt64
    var runLength: UInt64
}

/// A parsed leaf directory as the reader caches it, costed by its entries' memory.
struct PMTilesLeaf: CacheCost {
    var entries: [PMTilesEntry]
    var cacheCost: Int { HeapCost.array(entries) }
}

/// Directories as PMTiles v3 stores them: the entry count, then column by column the tile id
/// deltas, run lengths, lengths and offsets (0 for "right after the previous entry", else
/// offset + 1), all as unsigned LEB128 varints.
///
/// Bounded for hostile files: a directory of at most ``maximumEntries`` entries and
/// ``maximumBytes`` bytes (stored and inflated). Real ones are far smaller: the root must fit
/// in the file's first 16 KiB with the header, and writers (go-pmtiles, the Python `pmtiles`)
/// start leaves at 4,096 entries, growing them by a fifth only until the root fits, which
/// leaves a planet's leaves at tens of thousands of entries, a few hundred KiB inflated.
enum PMTilesDirectory {
    /// The most entries one directory may hold: 262,144 (8 MiB parsed).
    static let maximumEntries = 1 << 18
    /// The most bytes one directory may take, stored or inflated: 8 MiB (an entry takes at
    /// least 4 bytes, one per column).
    static let maximumBytes = 8 << 20
    static func serialize(_ entries: [PMTilesEntry]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 6 + 8)
        appendVarint(UInt64(entries.count), to: &out)
        var last: UInt64 = 0
        for entry in entries {
            appendVarint(entry.tileID - last, to: &out)
            last = entry.tileID
        }
        for entry in entries { appendVarint(entry.runLength, to: &out) }
        for entry in entries { appendVarint(entry.length, to: &out) }
        for (i, entry) in entries.enumerated() {
            if i > 0, entry.offset == entries[i - 1].offset + entries[i - 1].length {
                appendVarint(0, to: &out)
            } else {
                appendVarint(entry.offset + 1, to: &out)
            }
        }
        return out
    }

    /// Parses a directory, checking every count and sum against overflow.
    static func parse(_ bytes: [UInt8]) -> [PMTilesEntry]? {
        var position = 0
        guard let count = readVarint(bytes, &position), count <= UInt64(maximumEntries),
            count * 4 <= UInt64(bytes.count)
        else { return nil }
        let n = Int(count)
        var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var last: UInt64 = 0
        for i in 0..<n {
            guard let delta = readVarint(bytes, &position) else { return nil }
            let (id, overflow) = last.addingReportingOverflow(delta)
            guard !overflow else { return nil }
            entries[i].tileID = id
            last = id
        }
        for i in 0..<n {
            guard let value = readVarint(bytes, &position) else { return nil }
            entries[i].runLength = value
        }
        for i in 0..<n {
            guard let value = readVarint(bytes, &position) else { return nil }
            entries[i].length = value
        }
        for i in 0..<n {
            guard let value = readVarint(bytes, &position) else { return nil }
            if value == 0 {
                guard i > 0 else { return nil }
                let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(entries[i - 1].length)
                guard !overflow else { return nil }
                entries[i].offset = next
            } else {
                entries[i].offset = value - 1
            }
        }
        return entries
    }

    /// The entry that holds `id`: the last entry at or before it, if its run (or leaf) covers it.
    static func find(_ id: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        if entry.runLength == 0 { return entry }
        return id - entry.tileID < entry.runLength ? entry : nil
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func readVarint(_ bytes: [UInt8], _ position: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { return nil }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }
}
