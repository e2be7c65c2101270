import HeatmapKit
import Synchronization

/// The server caches that hold a served layer's tiles: each ``TileService`` serving the layer
/// attaches its own. Every change of the layer's data (points posted or deleted,
/// ``ServedLayer/change(_:removing:)``; a table's partial change,
/// ``ServedLayer/replace(with:update:)``) finds them here and drops the tiles it reaches.
final class LayerCaches: Sendable {
    private let caches = Mutex<[TileCache<TileKey, RenderedTile>]>([])

    /// Lets later changes drop their tiles from `cache` too.
    func attach(_ cache: TileCache<TileKey, RenderedTile>) {
        caches.withLock { $0.append(cache) }
    }

    /// Drops layer `name`'s tiles that `invalidation` reaches, and those keyed by an epoch other
    /// than `epoch`, from every cache (see ``TileCache/drop(layer:epoch:_:)``); returns how many.
    func drop(layer name: String, epoch: Int, _ invalidation: TileInvalidation) -> Int {
        caches.withLock { caches in
            caches.reduce(0) { dropped, cache in dropped + cache.drop(layer: name, epoch: epoch, invalidation) }
        }
    }

    /// Whether a tile cached in any of them has a key satisfying `predicate` (a pass over the keys).
    func contains(where predicate: (TileKey) -> Bool) -> Bool {
        caches.withLock { caches in caches.contains { $0.contains(where: predicate) } }
    }
}
