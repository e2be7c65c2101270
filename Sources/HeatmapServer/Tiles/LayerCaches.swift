import HeatmapKit
import Synchronization

/// The server caches that hold a served layer's tiles: each ``TileService`` serving the layer
/// attaches its own, with the names of its stacks drawn from the layer. Every change of the
/// layer's data (points posted or deleted, ``ServedLayer/change(_:removing:)``; a table's
/// partial change, ``ServedLayer/replace(with:update:)``) finds them here and drops the tiles
/// it reaches, the layer's own and its stacks'.
final class LayerCaches: Sendable {
    private struct Attachment: Sendable {
        let cache: TileCache<TileKey, RenderedTile>
        /// Whether tiles cached under a name other than the layer's are drawn from it (a stack of it).
        let drawsFrom: @Sendable (String) -> Bool
    }

    private let attachments = Mutex<[Attachment]>([])

    /// Lets later changes drop their tiles from `cache` too, those of the layers `drawsFrom`
    /// names (the stacks that hold the layer) included.
    func attach(_ cache: TileCache<TileKey, RenderedTile>, drawsFrom: @escaping @Sendable (String) -> Bool) {
        attachments.withLock { $0.append(Attachment(cache: cache, drawsFrom: drawsFrom)) }
    }

    /// Drops the tiles drawn from `layer` that `invalidation` reaches, and its own keyed by an
    /// epoch other than `epoch`, from every cache (see ``TileCache/drop(layer:epoch:drawsFrom:_:)``);
    /// returns how many.
    func drop(drawnFrom layer: ServedLayer, epoch: Int, _ invalidation: TileInvalidation) -> Int {
        attachments.withLock { attachments in
            attachments.reduce(0) { dropped, attachment in
                dropped
                    + attachment.cache.drop(
                        layer: layer.name, epoch: epoch, drawsFrom: attachment.drawsFrom, invalidation)
            }
        }
    }

    /// Whether a tile drawn from `layer` is cached anywhere with settings (given over the
    /// layer's) satisfying `predicate` (a pass over the keys).
    func contains(drawnFrom layer: ServedLayer, where predicate: (SettingOverrides) -> Bool) -> Bool {
        attachments.withLock { attachments in
            attachments.contains { attachment in
                attachment.cache.contains { key in
                    (key.layer == layer.name || attachment.drawsFrom(key.layer)) && predicate(key.settings)
                }
            }
        }
    }
}
