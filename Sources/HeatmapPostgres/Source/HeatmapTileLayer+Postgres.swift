import HeatmapCore
import HeatmapKit

extension HeatmapTileLayer {
    /// A layer drawing a PostgreSQL table: the same tiles, cache, settings and M(z) per zoom as
    /// from the same points in memory; a failing or slow database makes tile requests throw
    /// ``HeatmapError/sourceFailed(_:)`` or ``HeatmapError/sourceTimedOut(_:)``.
    ///
    /// ```swift
    /// let table = try PostgresSource(connection: ConnectionString(url), table: PostgresTable(name: "crimes"))
    /// let layer = HeatmapTileLayer(table: table)
    /// ```
    ///
    /// - Parameter cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    public convenience init(table: PostgresSource, settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20) {
        self.init(source: table, settings: settings, cacheBytes: cacheBytes)
    }

    /// A layer drawing the kernel-weighted mean of a table's column (``Aggregate/mean``), from
    /// ``PostgresSource/meanChannels(valueColumn:)``: both channels read in one statement a tile.
    ///
    /// - Parameter cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    public convenience init(
        mean channels: PostgresMeanChannels, settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20
    ) {
        self.init(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings, cacheBytes: cacheBytes)
    }

    /// Draws from `table` from now on (a version pinned to a newer change count, say), atomically:
    /// the cached tiles and M(z) values are dropped.
    public func replaceTable(with table: PostgresSource) {
        replaceSource(with: table)
    }
}
