import Dispatch
import Synchronization

/// A first-in first-out queue of at most `capacity` items between the render threads and the
/// writer: `push` waits while it is full (so memory stays bounded), `pop` waits for an item.
final class TileQueue<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])
    private let free: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        free = DispatchSemaphore(value: self.capacity)
    }

    /// Adds an item, waiting for room.
    func push(_ item: Item) {
        free.wait()
        items.withLock { $0.append(item) }
        ready.signal()
    }

    /// The oldest item, or `nil` if none came within `timeout` seconds.
    func pop(timeout: Double) -> Item? {
        guard ready.wait(timeout: .now() + timeout) == .success else { return nil }
        let item = items.withLock { $0.removeFirst() }
        free.signal()
        return item
    }
}
