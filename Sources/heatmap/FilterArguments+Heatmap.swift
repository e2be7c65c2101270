import HeatmapKit
import HeatmapPostgres
import HeatmapServer

extension FilterArguments {
    /// The one layer with the command's filters: a heatmap of `data` drawn with `filters`
    /// (`--datetime`, `--category`, `--scale-of`; a configuration layer's keys over them) as
    /// `serve` draws `?datetime=&category=`, for `serve`, `render`, `tile` and `image`, from a
    /// file or a table. The filters are checked against the data first, so that a column or
    /// value the data lack is a usage error before anything is written or served.
    ///
    /// - Throws: ``CommandError`` (64) naming the value the data lack; for a name unfit for
    ///   URLs or invalid settings, the layer's error.
    static func heatmap(
        name: String, source: String = "", settings: HeatmapSettings, filters: SettingOverrides, data: LayerData
    ) throws(CommandError) -> ServedLayer {
        let layer: ServedLayer
        do {
            layer = try ServedLayer(name: name, source: source, settings: settings, filters: filters, data: data)
        } catch {
            throw CommandError(error.description)
        }
        if let filter = layer.filterDefaults.filter {
            do throws(HeatmapError) {
                try layer.checkFilter(filter, settings: SettingOverrides())
            } catch {
                throw .usage(error.description)
            }
        }
        return layer
    }

    /// ``heatmap(name:source:settings:filters:data:)`` of a file's points.
    static func heatmap(_ file: PointFile, name: String, settings: HeatmapSettings, filters: SettingOverrides)
        throws(CommandError) -> ServedLayer
    {
        var data = LayerData(index: file.index, bounds: file.report.bounds)
        data.filters = file.filters
        return try heatmap(name: name, settings: settings, filters: filters, data: data)
    }

    /// ``heatmap(name:source:settings:filters:data:)`` of a table's rows (a pinned source: every
    /// tile and M(z) from one state) with their count and extent if known, its time range and
    /// category values read now.
    static func heatmap(
        _ source: PostgresSource, name: String, settings: HeatmapSettings, filters: SettingOverrides,
        count: Int = 0, bounds: PointBounds? = nil
    ) throws(CommandError) -> ServedLayer {
        var data = LayerData(source: source, count: count, bounds: bounds)
        data.filters = try PostgresArguments.filters(source)
        return try heatmap(name: name, settings: settings, filters: filters, data: data)
    }

    /// The heatmap of the points `layer`'s filters keep (``ServedLayer/keptHeatmap()``, the
    /// intensities `tile --format intensity` writes and `info` finds M(z) of), or `nil` when
    /// they keep none of positive weight.
    ///
    /// - Throws: ``CommandError`` (64) naming what the data lack, else the data's failure.
    static func kept(_ layer: ServedLayer) throws(CommandError) -> HeatmapTileLayer? {
        do {
            return try layer.keptHeatmap()
        } catch .invalidFilter(let message) {
            throw .usage(message)
        } catch {
            throw CommandError(error.description)
        }
    }
}
