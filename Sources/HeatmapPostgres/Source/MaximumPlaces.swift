import HeatmapCore
import HeatmapKit
import Synchronization

/// Where each M(z) a version of a source found lies: a pixel rectangle holding a pixel of
/// that intensity, per change count, zoom, scale and reach. A removal that reaches no pixel
/// of it leaves M(z) as it was (see ``PostgresSource/partialUpdate(after:knownMaxima:)``).
final class MaximumPlaces: Sendable {
    struct Key: Hashable {
        var count: Int64
        var slot: MaximumSlotKey
    }

    let places = Mutex<[Key: (value: Float, place: PixelRect)]>([:])
    /// How many M(z) values partial updates searched again in full (the tests read it).
    let fullSearches = Atomic(0)

    /// The most entries kept; older change counts go first.
    static var limit: Int { 256 }

    func record(_ value: Float, place: PixelRect, count: Int64, slot: MaximumSlotKey) {
        places.withLock { places in
            places[Key(count: count, slot: slot)] = (value, place)
            if places.count > Self.limit, let oldest = places.keys.map(\.count).min() {
                places = places.filter { $0.key.count != oldest }
            }
        }
    }

    func place(of value: Float, count: Int64, slot: MaximumSlotKey) -> PixelRect? {
        places.withLock { places in
            guard let found = places[Key(count: count, slot: slot)], found.value == value else { return nil }
            return found.place
        }
    }
}

extension TableChanges {
    /// Whether the pixels the changes reach (see ``reachedRects(space:reach:)``) meet `rect`
    /// (whose columns may run past the world's edges; they wrap).
    func reaches(_ rect: PixelRect, space: PixelSpace, reach: Int) -> Bool {
        let world = space.worldSize
        return reachedRects(space: space, reach: reach).contains { reached in
            guard reached.y < rect.y + rect.height, rect.y < reached.y + reached.height else { return false }
            return [-world, 0, world].contains { offset in
                reached.x + offset < rect.x + rect.width && rect.x < reached.x + offset + reached.width
            }
        }
    }
}
