import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapPostgresServer
import HeatmapServer

extension ServeCommand {
    /// The layer of `--postgres`: the table's rows and extent for TileJSON, tiles drawn from SQL
    /// with the command's `filters` unless a request gives its own, followed as the rows change
    /// (see ``ServedTable``).
    static func tableLayer(
        _ postgres: (connection: ConnectionString, table: PostgresTable, name: String, settings: HeatmapSettings),
        statementTimeout: Double, valueColumn: String? = nil, filters: SettingOverrides = .init()
    ) throws -> ServedTable {
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
        let layer = try FilterArguments.heatmap(
            name: postgres.name, settings: postgres.settings, filters: filters, data: data)
        if let missing = try? source.missingTriggers(), !missing.isEmpty {
            StandardStreams.error(
                "heatmap: table \(postgres.table.name) lacks triggers import makes (\(missing.joined(separator: ", "))), "
                    + "so some changes to its rows will not show: a heatmap import --append into it puts them back\n")
        }
        if initial == nil {
            StandardStreams.error(
                "heatmap: table \(postgres.table.name) has no change count (import makes one), so changes "
                    + "to its rows show only after a restart\n")
        }
        // Each version of the layer draws from the source pinned to its change count: a tile or
        // M(z) search that finds another count in its snapshot fails (503) and swaps in the new one.
        // A table with the change log drops only the tiles (and M(z) values) its changes reach;
        // the mean's tiles depend on values a partial change does not follow: a whole swap.
        let table = ServedTable(
            layer: layer, source: source, initialCount: initial, followsPartialChanges: valueColumn == nil
        ) { version in
            let fresh = try? version.summary()
            guard
                let data = try? Self.tableData(
                    version, valueColumn: valueColumn, count: fresh?.rows ?? summary.rows,
                    bounds: fresh?.bounds ?? summary.bounds)
            else {
                StandardStreams.error("heatmap: table \(postgres.table.name) changed, but its values cannot be read\n")
                return nil
            }
            return data
        }
        return table
    }

    /// A version of the table as a layer's data: the density and its filters (`--time`,
    /// `--categories`: the time range and values read again for each version), and with
    /// `--value COL` the mean's channels (the value range read again for each version).
    static func tableData(_ source: PostgresSource, valueColumn: String?, count: Int, bounds: PointBounds?)
        throws(CommandError) -> LayerData
    {
        guard let valueColumn else {
            var data = LayerData(source: source, count: count, bounds: bounds)
            data.filters = try PostgresArguments.filters(source)
            return data
        }
        let channels = try PostgresArguments.meanChannels(source, valueColumn: valueColumn)
        var data = LayerData(source: channels.density, count: count, bounds: bounds)
        data.sourceValues = SourceMeanChannel(shiftedValues: channels.shiftedValues, values: channels.values)
        return data
    }
}
