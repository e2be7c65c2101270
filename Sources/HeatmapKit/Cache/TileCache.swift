import Synchronization

/// What a ``TileCache`` holds and is keyed by: a value that knows the heap memory it keeps alive.
package protocol CacheCost: Sendable {
    /// The heap memory the value keeps alive, in bytes: the storage of its arrays and strings
    /// (see ``HeapCost``). Its inline size is counted by the cache, with the cache's own
    /// bookkeeping.
    var cacheCost: Int { get }
}

extension TileResult: CacheCost {
    /// The PNG's storage; nothing for ``noTile``.
    package var cacheCost: Int { png.map(HeapCost.array) ?? 0 }
}

/// A bounded, thread-safe cache of encoded tiles that drops the least recently used first.
///
/// Its byte count is what it really holds: every tile's heap memory, the key's too when the
/// key conforms to ``CacheCost`` (settings with a gradient do), and the cache's own tables (a
/// dictionary and a list of entries, at their capacity), so that a cache of many empty tiles
/// stays within its capacity as one of large tiles does.
package final class TileCache<Key: Hashable & Sendable, Value: CacheCost>: Sendable {
    private let storage: Mutex<LRUStorage<Key, Value>>
    /// The most bytes held; 0 turns the cache off (a server with its own cache does that).
    public let capacityBytes: Int

    /// Creates a cache that holds at most `capacityBytes` (default 64 MiB).
    public init(capacityBytes: Int = 64 << 20) {
        self.capacityBytes = max(0, capacityBytes)
        storage = Mutex(LRUStorage(capacity: self.capacityBytes))
    }

    /// The cached tile for `key`, now the most recently used; `nil` if absent.
    public subscript(key: Key) -> Value? {
        guard capacityBytes > 0 else { return nil }
        return storage.withLock { $0.value(for: key) }
    }

    /// Stores a tile, evicting the least recently used ones until it fits; a tile larger
    /// than the whole capacity is not stored.
    public func insert(_ tile: Value, for key: Key) {
        guard capacityBytes > 0 else { return }
        let size = tile.cacheCost + ((key as? any CacheCost)?.cacheCost ?? 0)
        storage.withLock { $0.insert(tile, for: key, heapBytes: size) }
    }

    /// Drops every tile.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// Drops the tiles whose key `shouldRemove` picks (called once a key held when it starts;
    /// a tile inserted meanwhile stays); returns how many were dropped.
    @discardableResult
    public func removeAll(where shouldRemove: (Key) -> Bool) -> Int {
        let picked = storage.withLock { $0.keys }.filter(shouldRemove)
        return storage.withLock { storage in picked.reduce(0) { $0 + (storage.remove(key: $1) ? 1 : 0) } }
    }

    /// The number of tiles held.
    public var count: Int { storage.withLock { $0.count } }
    /// The bytes held: the tiles' and keys' heap memory and the cache's own tables.
    public var bytes: Int { storage.withLock { $0.bytes } }
}
