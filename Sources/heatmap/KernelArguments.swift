import HeatmapKit

/// What the mean needs of the data, shared by `tile`, `image`, `render` and `serve`.
enum KernelArguments {
    /// Refuses the mean where the data cannot give it: `--aggregate mean` without `--value`
    /// (a file's column or field, or with `--postgres` the table's column).
    static func check(_ settings: HeatmapSettings, options: PointReadOptions, postgres: Bool) throws(CommandError) {
        if settings.aggregate == .mean, options.valueColumn == nil {
            throw .usage("--aggregate mean needs --value COL, the column or field whose mean to draw")
        }
    }
}

extension DataArguments {
    /// The layer of a file read: with its values when a value column was read.
    static func layer(_ file: PointFile, settings: HeatmapSettings, cacheBytes: Int = 64 << 20) -> HeatmapTileLayer {
        HeatmapTileLayer(file: file, settings: settings, cacheBytes: cacheBytes)
    }
}
