import HeatmapKit
import HeatmapPostgres
import HeatmapServer
import Synchronization

/// A PostgreSQL table served as a ``ServedLayer`` that follows the table's rows: a
/// ``PostgresChangeWatcher`` on the table's change count, and on each new count a version of
/// the source pinned to it swapped into the layer. Where the change log says which cells
/// changed (see ``PostgresSource/partialUpdate(after:knownMaxima:)``), the swap keeps the
/// cached tiles and M(z) values the change does not reach; otherwise (a plain table, a
/// `TRUNCATE`, a log pruned past the served count, or `followsPartialChanges` off) it is a
/// whole swap, every cached tile dropped. `heatmap serve --postgres` and the tests use it.
///
/// ```swift
/// let source = try PostgresSource(connection: url, table: PostgresTable(name: "crimes"))
/// let count = try source.changeCount()
/// let layer = try ServedLayer(
///     name: "crimes", data: LayerData(source: source.pinned(toChangeCount: count), count: 0, bounds: nil))
/// let table = ServedTable(layer: layer, source: source, initialCount: count) { version in
///     LayerData(source: version, count: 0, bounds: nil)
/// }
/// table.start()
/// ```
package final class ServedTable: Sendable {
    /// The layer served; its data are swapped as the table changes.
    package let layer: ServedLayer
    /// The watcher of the table's change count (started by ``start()``).
    package let watcher: PostgresChangeWatcher
    private let swaps: Swaps

    /// How many swaps kept what the change did not reach, and how many were whole.
    final class Swaps: Sendable {
        let partial = Atomic(0)
        let whole = Atomic(0)
    }

    /// Follows `source` from `initialCount` (the count `layer`'s data are pinned to; `nil` when
    /// the table has none, which makes every change a whole swap), polling every `interval`.
    ///
    /// - Parameters:
    ///   - followsPartialChanges: `false` to swap whole versions only (the mean's tiles depend
    ///     on values a partial change does not follow).
    ///   - data: the layer's data for a version of the source pinned to a new count, or `nil`
    ///     when they cannot be read (the swap then waits for the next change, which is
    ///     followed from the count served last).
    package init(
        layer: ServedLayer, source: PostgresSource, initialCount: Int64?, interval: Duration = .seconds(1),
        followsPartialChanges: Bool = true, data: @escaping @Sendable (PostgresSource) -> LayerData?
    ) {
        self.layer = layer
        let swaps = Swaps()
        self.swaps = swaps
        // The count whose version is served: moved only when a version is swapped in.
        let served = Mutex(initialCount)
        watcher = PostgresChangeWatcher(source: source, initialCount: initialCount, interval: interval) { count in
            let version = source.pinned(toChangeCount: count)
            guard let fresh = data(version) else { return }
            let previous = served.withLock { previous in
                defer { previous = count }
                return previous
            }
            if followsPartialChanges, let previous,
                let update = version.partialUpdate(after: previous, knownMaxima: layer.knownMaxima)
            {
                layer.replace(with: fresh, update: update)
                swaps.partial.add(1, ordering: .relaxed)
            } else {
                layer.replace(with: fresh)
                swaps.whole.add(1, ordering: .relaxed)
            }
        }
    }

    /// Starts watching the table (on a background queue).
    package func start() { watcher.start() }

    /// Stops watching the table.
    package func stop() { watcher.stop() }

    /// The number of swaps that kept the cached tiles a change did not reach.
    package var partialSwaps: Int { swaps.partial.load(ordering: .relaxed) }

    /// The number of whole swaps (every cached tile dropped).
    package var wholeSwaps: Int { swaps.whole.load(ordering: .relaxed) }
}
