import HeatmapKit
import Testing

@Suite struct TileCacheTests {
    /// A tile of `size` PNG bytes: costs `size + 64` in the cache.
    func tile(_ size: Int, _ byte: UInt8 = 0) -> TileResult { .image([UInt8](repeating: byte, count: size)) }

    @Test("the least recently used tiles go first, and the bytes stay under the capacity")
    func evictsLeastRecentlyUsed() {
        let cache = TileCache<Int, TileResult>(capacityBytes: 3 * 164)
        for key in 0..<3 { cache.insert(tile(100, UInt8(key)), for: key) }
        #expect(cache.count == 3 && cache.bytes == 3 * 164)
        #expect(cache[0] == tile(100, 0))  // 0 is now the most recent: 1 is the oldest
        cache.insert(tile(100, 3), for: 3)
        #expect(cache[1] == nil)
        #expect(cache[0] != nil && cache[2] != nil && cache[3] != nil)
        #expect(cache.bytes <= 3 * 164)
        cache.insert(tile(500), for: 4)  // larger than the whole cache: not stored, nothing dropped
        #expect(cache[4] == nil && cache.count == 3)
        cache.insert(.noTile, for: 0)  // replacing an entry frees its bytes
        #expect(cache[0] == .noTile && cache.bytes == 64 + 2 * 164)
        cache.removeAll()
        #expect(cache.count == 0 && cache.bytes == 0)
    }
}
