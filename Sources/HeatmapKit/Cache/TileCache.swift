import Synchronization

/// What a ``TileCache`` can hold: a value that knows the bytes it keeps alive.
public protocol CacheCost: Sendable {
    /// The memory the value holds, in bytes, counted against the cache's capacity.
    var cacheCost: Int { get }
}

extension TileResult: CacheCost {
    /// The PNG's bytes plus 64 for the entry itself.
    public var cacheCost: Int { 64 + (png?.count ?? 0) }
}

/// A bounded, thread-safe cache of encoded tiles that drops the least recently used first.
public final class TileCache<Key: Hashable & Sendable, Value: CacheCost>: Sendable {
    private let storage: Mutex<LRUStorage<Key, Value>>
    /// The most bytes held; 0 turns the cache off (a server with its own cache does that).
    public let capacityBytes: Int

    /// Creates a cache that holds at most `capacityBytes` of tile bytes (default 64 MiB).
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
        storage.withLock { $0.insert(tile, for: key) }
    }

    /// Drops every tile.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// The number of tiles held.
    public var count: Int { storage.withLock { $0.count } }
    /// The bytes of tiles held.
    public var bytes: Int { storage.withLock { $0.bytes } }
}

/// The cache's bookkeeping: a dictionary into a doubly linked list kept in an array.
struct LRUStorage<Key: Hashable, Value: CacheCost> {
    private struct Node {
        var key: Key
        var tile: Value?
        var size: Int
        var previous: Int
        var next: Int
    }

    let capacity: Int
    private(set) var bytes = 0
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var head = -1  // most recent
    private var tail = -1  // least recent

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { slots.count }

    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        pushFront(slot)
        return nodes[slot].tile
    }

    mutating func insert(_ tile: Value, for key: Key) {
        if let slot = slots[key] { remove(slot) }
        let size = tile.cacheCost
        guard size <= capacity else { return }
        while bytes + size > capacity, tail >= 0 { remove(tail) }
        let node = Node(key: key, tile: tile, size: size, previous: -1, next: -1)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        slots[key] = slot
        bytes += size
        pushFront(slot)
    }

    mutating func removeAll() {
        self = LRUStorage(capacity: capacity)
    }

    private mutating func remove(_ slot: Int) {
        unlink(slot)
        slots[nodes[slot].key] = nil
        bytes -= nodes[slot].size
        nodes[slot].tile = nil
        free.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (p, n) = (nodes[slot].previous, nodes[slot].next)
        if p >= 0 { nodes[p].next = n } else { head = n }
        if n >= 0 { nodes[n].previous = p } else { tail = p }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }

    private mutating func pushFront(_ slot: Int) {
        nodes[slot].next = head
        nodes[slot].previous = -1
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}
