import HeatmapKit

/// The radius in metres and the mean, shared by `tile`, `image`, `render` and `serve`:
/// `--radius-meters`, `--radius-latitude`, `--aggregate`, `--min-density`, `--value-range`.
enum KernelArguments {
    /// The option names, each taking a value.
    static let valued: Set<String> = ["radius-meters", "radius-latitude", "aggregate", "min-density", "value-range"]

    /// The lines of `--help` that explain them.
    static let help = """
          --radius-meters M  the radius in ground metres instead of points, converted per zoom at
                             --radius-latitude (default: the middle of the data's latitudes);
                             at least 1 pixel, at most 128 points
          --aggregate A      sum (default: the density) or mean: the kernel-weighted mean of
                             --value COL, coloured from the values' lowest to highest
          --min-density D    with mean: pixels whose density is below D stay clear (default 0)
          --value-range LO,HI  with mean: the values at the ends of the ramp (default: the data's)
        """

    /// Applies the options given to `settings`; values are checked by
    /// ``HeatmapSettings/validate()`` afterwards.
    ///
    /// - Throws: ``CommandError`` naming the option and what it takes.
    static func apply(_ list: ArgumentList, to settings: inout HeatmapSettings) throws(CommandError) {
        if let meters = try list.number("radius-meters") { settings.radiusMeters = meters }
        if let latitude = try list.number("radius-latitude") { settings.radiusLatitude = latitude }
        if let text = list.text("aggregate") {
            guard let aggregate = Aggregate(rawValue: text) else {
                throw .usage("--aggregate is sum or mean, got \"\(text)\"")
            }
            settings.aggregate = aggregate
        }
        if let density = try list.number("min-density") { settings.minimumDensity = density }
        if let text = list.text("value-range") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low.isFinite, high.isFinite, low <= high
            else { throw .usage("--value-range expects LO,HI with LO <= HI, such as 0,100, got \"\(text)\"") }
            settings.valueRange = low...high
        }
    }

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
        if let values = file.values {
            return HeatmapTileLayer(values: values, settings: settings, cacheBytes: cacheBytes)
        }
        return HeatmapTileLayer(index: file.index, settings: settings, cacheBytes: cacheBytes)
    }
}
