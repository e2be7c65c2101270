import HeatmapKit
import HeatmapPostgres

extension PostgresArguments {
    /// The mean's channels of `--value COL` over the table.
    ///
    /// - Throws: ``CommandError`` naming the column, or the database's failure.
    static func meanChannels(_ source: PostgresSource, valueColumn: String) throws(CommandError)
        -> PostgresMeanChannels
    {
        do {
            return try source.meanChannels(valueColumn: valueColumn)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// The layer of a table: the density, and with `--value COL` the mean's channels too
    /// (`sum(weight)` and `sum(weight * (value - LO))` per pixel, see PostgresSource+Mean.swift).
    static func layer(_ source: PostgresSource, valueColumn: String?, settings: HeatmapSettings)
        throws(CommandError) -> HeatmapTileLayer
    {
        guard let valueColumn else { return HeatmapTileLayer(source: source, settings: settings) }
        let channels = try meanChannels(source, valueColumn: valueColumn)
        return HeatmapTileLayer(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings)
    }

    /// The table's rows pinned to its state now (each tile and its zoom's M(z) read from that
    /// state), drawn as ``layer(_:valueColumn:settings:)`` draws them, and the pinned source
    /// (for its filters): what `tile` and `image` read with `--postgres`.
    static func pinnedLayer(
        _ connection: ConnectionString, _ table: PostgresTable, valueColumn: String?, settings: HeatmapSettings
    ) throws(CommandError) -> (HeatmapTileLayer, PostgresSource) {
        let source = try Self.source(connection, table)
        let pinned = source.pinned(toChangeCount: try? source.changeCount())
        return (try layer(pinned, valueColumn: valueColumn, settings: settings), pinned)
    }

    /// The layer `render --postgres` draws (no tile cache: every tile is drawn once) and the
    /// source its walk asks for weight: the density, of the mean's rows with `--value COL`.
    static func renderLayer(_ source: PostgresSource, valueColumn: String?, settings: HeatmapSettings)
        throws(CommandError) -> (HeatmapTileLayer, PostgresSource)
    {
        guard let valueColumn else {
            return (HeatmapTileLayer(source: source, settings: settings, cacheBytes: 0), source)
        }
        let channels = try meanChannels(source, valueColumn: valueColumn)
        let layer = HeatmapTileLayer(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings, cacheBytes: 0)
        return (layer, channels.density)
    }
}
