import Synchronization

extension GatheredCells {
    /// Grids' storage kept for the next tiles, all zeros, the one returned last first: a tile
    /// drawn after another on the same thread takes the floats still in its cache, and clears
    /// only what the tile before wrote instead of a whole fresh grid.
    private static let spare = Mutex<[[Float]]>([])
    /// At most this many grids are kept (a render thread each, and some).
    private static let spareLimit = 8
    /// Storage larger than this (floats) is not kept: 4 MiB, past a 768-pixel tile's grid.
    private static let spareFloatsLimit = 1 << 20

    /// An empty grid of `width × height` pixels whose storage comes from a grid recycled by
    /// ``recycle()`` when one is large enough (it is all zeros), else is allocated.
    ///
    /// - Complexity: O(height) with recycled storage, else O(width × height).
    static func reused(width: Int, height: Int) -> GatheredCells {
        let needed = (max(0, width) + blockWidth) * max(0, height)
        let storage: [Float]? = spare.withLock { spare in
            guard let index = spare.lastIndex(where: { $0.count >= needed }) else { return nil }
            return spare.remove(at: index)
        }
        return GatheredCells(width: width, height: height, zeroedStorage: storage)
    }

    /// Clears the chunks of columns that weights were added to (the only nonzero floats) and
    /// keeps the storage for ``reused(width:height:)``; the grid is empty afterwards.
    ///
    /// - Complexity: O(height + the occupied chunks' floats).
    mutating func recycle() {
        var floats = storage
        storage = []
        guard floats.count <= Self.spareFloatsLimit, !floats.isEmpty else { return }
        let chunk = 1 << chunkShift
        floats.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<height {
                var bits = rowChunks[y]
                while bits != 0 {
                    let first = bits.trailingZeroBitCount * chunk
                    bits &= bits - 1
                    let end = min(stride, first + chunk)
                    if first < end { (base + y * stride + first).update(repeating: 0, count: end - first) }
                }
            }
        }
        for y in 0..<height {
            rowChunks[y] = 0
            rowCounts[y] = 0
        }
        let kept = floats
        Self.spare.withLock { spare in
            if spare.count >= Self.spareLimit { spare.removeFirst() }
            spare.append(kept)
        }
    }
}
