/// A ``TileCache``'s bookkeeping: a dictionary into a doubly linked list kept in an array,
/// counting the entries' heap bytes and the memory of both tables at their capacity.
struct LRUStorage<Key: Hashable, Value> {
    private struct Node {
        /// `nil` in a free slot, so that a key's heap memory goes with its entry.
        var key: Key?
        var tile: Value?
        var size: Int
        var previous: Int
        var next: Int
    }

    let capacity: Int
    /// The heap bytes of the entries held, as given to ``insert(_:for:heapBytes:)``.
    private(set) var heapBytes = 0
    /// The tables' memory: the dictionary, the list and the free slots, at their capacity.
    private(set) var tableBytes = 0
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var head = -1  // most recent
    private var tail = -1  // least recent

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { slots.count }
    /// Everything the cache holds.
    var bytes: Int { heapBytes + tableBytes }

    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        pushFront(slot)
        return nodes[slot].tile
    }

    mutating func insert(_ tile: Value, for key: Key, heapBytes size: Int) {
        if let slot = slots[key] { remove(slot) }
        // What one entry adds to tables that do not grow: a list slot and a dictionary bucket
        // of an empty cache are more than this, so such a tile can never be held.
        guard size + Self.tablesBytes(entries: 1) <= capacity else { return }
        while tail >= 0, heapBytes + size + tableBytesAfterInsert() > capacity { remove(tail) }
        guard heapBytes + size + tableBytesAfterInsert() <= capacity else { return }
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
        heapBytes += size
        pushFront(slot)
        updateTableBytes()
    }

    mutating func removeAll() {
        self = LRUStorage(capacity: capacity)
    }

    /// The keys held, in no particular order.
    var keys: [Key] { Array(slots.keys) }

    /// Drops the entry of `key`; returns whether there was one.
    mutating func remove(key: Key) -> Bool {
        guard let slot = slots[key] else { return false }
        remove(slot)
        return true
    }

    /// The tables' bytes while one more entry goes in now: a full list with no free slot, or
    /// a full dictionary, grows to twice its capacity (as Swift's do), and while it is copied
    /// the old and the new storage are both held.
    private func tableBytesAfterInsert() -> Int {
        let listGrows = free.isEmpty && nodes.count == nodes.capacity
        let dictionaryGrows = slots.count == slots.capacity
        guard listGrows || dictionaryGrows else { return tableBytes }
        let grown = Self.tableBytes(
            list: listGrows ? max(2 * nodes.capacity, 16) : nodes.capacity,
            dictionary: dictionaryGrows ? max(2 * slots.capacity, 2) : slots.capacity, free: free.capacity)
        let old = Self.tableBytes(
            list: listGrows ? nodes.capacity : 0, dictionary: dictionaryGrows ? slots.capacity : 0, free: 0)
        return grown + old
    }

    private mutating func updateTableBytes() {
        tableBytes = Self.tableBytes(list: nodes.capacity, dictionary: slots.capacity, free: free.capacity)
    }

    private static func tableBytes(list: Int, dictionary: Int, free: Int) -> Int {
        (list == 0 ? 0 : HeapCost.allocation(32 + list * MemoryLayout<Node>.stride))
            + HeapCost.hashTable(capacity: dictionary, stride: MemoryLayout<Key>.stride + MemoryLayout<Int>.stride)
            + (free == 0 ? 0 : HeapCost.allocation(32 + free * MemoryLayout<Int>.stride))
    }

    /// The tables of a cache of `entries` entries at the smallest capacities that hold them.
    static func tablesBytes(entries: Int) -> Int {
        tableBytes(list: entries, dictionary: entries, free: 0)
    }

    private mutating func remove(_ slot: Int) {
        unlink(slot)
        if let key = nodes[slot].key { slots[key] = nil }
        heapBytes -= nodes[slot].size
        nodes[slot].key = nil
        nodes[slot].tile = nil
        free.append(slot)
        updateTableBytes()
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
