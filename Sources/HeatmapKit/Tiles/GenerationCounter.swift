import Synchronization

/// A counter that a layer advances whenever its tiles may have changed (``TileLayer/cacheGeneration``).
final class GenerationCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// The current generation.
    var current: Int { value.load(ordering: .acquiring) }

    /// Moves to the next generation.
    func advance() { value.add(1, ordering: .releasing) }
}
