import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer
import Synchronization

extension ServeCommand {
    /// The layer of `--postgres`: the table's rows and extent for TileJSON, tiles drawn from SQL,
    /// and a watcher of the table's change count that swaps in a fresh version of the layer (its
    /// cached tiles and M(z) values dropped) when the rows change.
    static func tableLayer(
        _ postgres: (connection: ConnectionString, table: PostgresTable, name: String, settings: HeatmapSettings),
        statementTimeout: Double, valueColumn: String? = nil
    ) throws -> (ServedLayer, PostgresChangeWatcher) {
        let timeout: Duration? = statementTimeout > 0 ? .milliseconds(min(statementTimeout, 86_400) * 1000) : nil
        let source = try PostgresArguments.source(postgres.connection, postgres.table, statementTimeout: timeout)
        let summary: PostgresTableSummary
        do {
            summary = try source.summary()
        } catch {
            throw CommandError(error.description)
        }
        let initial = try? source.changeCount()
        let data = try Self.tableData(
            source.pinned(toChangeCount: initial), valueColumn: valueColumn, count: summary.rows,
            bounds: summary.bounds)
        let layer = try ServedLayer(name: postgres.name, settings: postgres.settings, data: data)
        if initial == nil {
            StandardStreams.error(
                "heatmap: table \(postgres.table.name) has no change count (import makes one), so changes "
                    + "to its rows show only after a restart\n")
        }
        // Each version of the layer draws from the source pinned to its change count: a tile or
        // M(z) search that finds another count in its snapshot fails (503) and swaps in the new one.
        // A table with the change log drops only the tiles (and M(z) values) its changes reach.
        let served = Mutex(initial)
        let watcher = PostgresChangeWatcher(source: source, initialCount: initial) { count in
            let version = source.pinned(toChangeCount: count)
            let fresh = try? version.summary()
            guard
                let data = try? Self.tableData(
                    version, valueColumn: valueColumn, count: fresh?.rows ?? summary.rows,
                    bounds: fresh?.bounds ?? summary.bounds)
            else {
                return StandardStreams.error(
                    "heatmap: table \(postgres.table.name) changed, but its values cannot be read\n")
            }
            let previous = served.withLock { previous in
                defer { previous = count }
                return previous
            }
            // The mean's tiles depend on values a partial change does not follow: a whole swap.
            if valueColumn == nil, let previous,
                let update = version.partialUpdate(after: previous, knownMaxima: layer.knownMaxima)
            {
                layer.replace(with: data, update: update)
            } else {
                layer.replace(with: data)
            }
        }
        return (layer, watcher)
    }

    /// A version of the table as a layer's data: the density, and with `--value COL` the
    /// mean's channels (the value range read again for each version).
    static func tableData(_ source: PostgresSource, valueColumn: String?, count: Int, bounds: PointBounds?)
        throws(CommandError) -> LayerData
    {
        guard let valueColumn else { return LayerData(source: source, count: count, bounds: bounds) }
        let channels = try PostgresArguments.meanChannels(source, valueColumn: valueColumn)
        var data = LayerData(source: channels.density, count: count, bounds: bounds)
        data.sourceValues = SourceMeanChannel(shiftedValues: channels.shiftedValues, values: channels.values)
        return data
    }
}
