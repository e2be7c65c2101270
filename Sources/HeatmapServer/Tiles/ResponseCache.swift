import Synchronization

/// The server's tile cache, shared by every connection and layer: least recently used
/// out first, bounded in bytes.
final class ResponseCache: Sendable {
    private let storage: Mutex<Storage>

    init(capacityBytes: Int) {
        storage = Mutex(Storage(capacity: max(0, capacityBytes)))
    }

    subscript(key: TileKey) -> RenderedTile? {
        storage.withLock { $0.lookup(key) }
    }

    func insert(_ tile: RenderedTile, for key: TileKey) {
        storage.withLock { $0.insert(tile, for: key) }
    }

    func removeAll() {
        storage.withLock { $0 = Storage(capacity: $0.capacity) }
    }

    var usage: (count: Int, bytes: Int) { storage.withLock { ($0.entries.count, $0.bytes) } }

    /// A dictionary with a use counter per entry; eviction drops the oldest uses in batches,
    /// so a hit costs a hash lookup and an increment.
    struct Storage {
        let capacity: Int
        var entries: [TileKey: (tile: RenderedTile, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0

        init(capacity: Int) { self.capacity = capacity }

        mutating func lookup(_ key: TileKey) -> RenderedTile? {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key]?.used = clock
            return entry.tile
        }

        mutating func insert(_ tile: RenderedTile, for key: TileKey) {
            guard tile.size <= capacity else { return }
            if let old = entries[key] { bytes -= old.tile.size }
            clock += 1
            entries[key] = (tile, clock)
            bytes += tile.size
            if bytes > capacity { evict(toward: capacity - capacity / 8) }
        }

        /// Drops the least recently used until `target` bytes remain.
        private mutating func evict(toward target: Int) {
            let order = entries.sorted { $0.value.used < $1.value.used }
            for (key, entry) in order {
                guard bytes > target else { break }
                entries[key] = nil
                bytes -= entry.tile.size
            }
        }
    }
}
