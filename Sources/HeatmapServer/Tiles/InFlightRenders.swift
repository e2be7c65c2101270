import Synchronization

/// Renders each key once however many requests ask for it at the same time: the first
/// asker renders, later ones wait for its result. Tiles are keyed by ``TileKey``; their WebP
/// forms by ``WebPTileKey``, so that one encode serves every request for a WebP not yet cached.
final class InFlightRenders<Key: Hashable & Sendable>: Sendable {
    typealias Waiter = @Sendable (Result<RenderedTile, RenderFailure>) -> Void
    private let waiting = Mutex<[Key: [Waiter]]>([:])

    /// Registers `waiter`; returns true when the caller is the first and must render.
    func join(_ key: Key, _ waiter: @escaping Waiter) -> Bool {
        waiting.withLock { waiting in
            if waiting[key] != nil {
                waiting[key]?.append(waiter)
                return false
            }
            waiting[key] = [waiter]
            return true
        }
    }

    /// Hands the result to every waiter of the key.
    func finish(_ key: Key, with result: Result<RenderedTile, RenderFailure>) {
        let waiters = waiting.withLock { $0.removeValue(forKey: key) } ?? []
        for waiter in waiters { waiter(result) }
    }
}

/// A tile that could not be drawn.
struct RenderFailure: Error, Sendable {
    var status: Int
    var message: String
}
