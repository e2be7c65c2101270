/// Estimates of the heap memory Swift values keep alive, for caches that bound their memory by
/// counting it: what glibc's `malloc` hands out for arrays and strings, rounded up.
package enum HeapCost {
    /// The memory one allocation of `bytes` takes: 8 bytes of bookkeeping, rounded up to 16,
    /// at least 32 (glibc's malloc on 64-bit systems).
    public static func allocation(_ bytes: Int) -> Int {
        max(32, (bytes + 8 + 15) & ~15)
    }

    /// An array's storage: a 32-byte header and room for its whole capacity; 0 when it has
    /// none (empty arrays share one static storage).
    public static func array<Element>(_ array: [Element]) -> Int {
        array.capacity == 0 ? 0 : allocation(32 + array.capacity * MemoryLayout<Element>.stride)
    }

    /// A string's storage: 0 for at most 15 UTF-8 bytes (kept inline), else a 32-byte header
    /// and the bytes with a terminator, counted twice over for the spare capacity that
    /// appending leaves (the capacity itself is not visible).
    public static func string(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : allocation(32 + 2 * (count + 1))
    }

    /// The storage of a hashed collection of `capacity` entries of `stride` bytes each, as
    /// Swift's `Dictionary` and `Set` lay it out: buckets a power of two, at most 3/4 full,
    /// with one bit of metadata a bucket and a header of about 64 bytes.
    public static func hashTable(capacity: Int, stride: Int) -> Int {
        guard capacity > 0 else { return 0 }
        var buckets = 1
        while buckets * 3 / 4 < capacity { buckets <<= 1 }
        return allocation(64 + buckets / 8 + buckets * stride)
    }
}

extension HeatmapSettings: CacheCost {
    /// The gradient's arrays (shared with other settings of the same gradient, so counted
    /// once too often rather than too rarely).
    package var cacheCost: Int { HeapCost.array(gradient.colors) + HeapCost.array(gradient.startPoints) }
}
