import HeatmapCore
import Testing

@testable import HeatmapKit

@Suite struct TileCacheTests {
    /// A tile of `size` PNG bytes.
    func tile(_ size: Int, _ byte: UInt8 = 0) -> TileResult { .image([UInt8](repeating: byte, count: size)) }

    @Test("the least recently used tiles go first, and the bytes stay under the capacity")
    func evictsLeastRecentlyUsed() {
        // Room for three 10,000-byte tiles and the tables (a few hundred bytes, 2 KiB while one grows), not four.
        let one = HeapCost.array(tile(10_000).png ?? [])
        let capacity = 3 * one + 4096
        let cache = TileCache<Int, TileResult>(capacityBytes: capacity)
        for key in 0..<3 { cache.insert(tile(10_000, UInt8(key)), for: key) }
        #expect(cache.count == 3 && cache.bytes <= capacity && cache.bytes > 3 * one)
        #expect(cache[0] == tile(10_000, 0))  // 0 is now the most recent: 1 is the oldest
        cache.insert(tile(10_000, 3), for: 3)
        #expect(cache[1] == nil)
        #expect(cache[0] != nil && cache[2] != nil && cache[3] != nil)
        #expect(cache.bytes <= capacity)
        cache.insert(tile(50_000), for: 4)  // larger than the whole cache: not stored, nothing dropped
        #expect(cache[4] == nil && cache.count == 3)
        let before = cache.bytes
        cache.insert(.noTile, for: 0)  // replacing an entry frees its bytes
        #expect(cache[0] == .noTile && cache.bytes == before - one)
        cache.removeAll()
        #expect(cache.count == 0 && cache.bytes == 0)
    }

    @Test("many empty tiles: the byte count covers the tables and the keys, and stays within the capacity")
    func emptyTilesStayWithinTheBudget() {
        let capacity = 1 << 20
        let cache = TileCache<HeatmapTileLayer.TileKey, TileResult>(capacityBytes: capacity)
        let gradient = Gradient.default
        var most = 0
        for i in 0..<60_000 {
            // Distinct keys, as distinct requests make them; every fourth with a gradient of its own.
            let own = i % 4 == 0 ? (try? Gradient(colors: gradient.colors, startPoints: gradient.startPoints)) : nil
            let settings = HeatmapSettings(gradient: own ?? gradient, opacity: Double(i % 100) / 100)
            let key = HeatmapTileLayer.TileKey(generation: 0, settings: settings, zoom: 22, x: i, y: i, scale: 1)
            cache.insert(.noTile, for: key)
            #expect(cache.bytes <= capacity)
            most = max(most, cache.count)
        }
        // An entry costs at least its key and value inline, twice (the list and the dictionary).
        let inline = MemoryLayout<HeatmapTileLayer.TileKey>.stride + MemoryLayout<TileResult>.stride
        #expect(most * 2 * inline <= capacity)
        #expect(cache.count > 0 && cache.count < 60_000)
        // The old accounting (64 bytes an empty tile) would have held 16,384 of them.
        #expect(most < 16_384 / 2)
    }

    @Test("tiles of every size, inserted at random: never above the capacity, and most of it used")
    func mixedSizes() {
        var random = SplitMix64(seed: 5)
        let capacity = 256 << 10
        let cache = TileCache<Int, TileResult>(capacityBytes: capacity)
        for key in 0..<20_000 {
            let size = Int(random.next() % 4) == 0 ? Int(random.next() % 20_000) : 0
            cache.insert(size == 0 ? .noTile : tile(size), for: Int(random.next() % 5000))
            #expect(cache.bytes <= capacity, "after \(key) inserts")
        }
        #expect(cache.bytes > capacity / 2)
    }
}
