import HeatmapCore
import HeatmapKit

/// The filters every drawing command takes, settings of ``SettingsSchema`` like `--radius`:
/// `--datetime START/END`, `--category COL:V1,V2` (repeatable, one a column) and
/// `--scale-of filter|all`, over the points' `--time` and `--categories` columns.
enum FilterArguments {
    /// The filters given, or `nil` for none; checked against the data options.
    ///
    /// - Throws: ``CommandError`` (64) naming the value for a filter that cannot apply: a
    ///   window without `--time`, a category without `--categories`, or the mean.
    static func request(_ list: ArgumentList, options: PointReadOptions, settings: HeatmapSettings)
        throws(CommandError) -> LayerFilterRequest?
    {
        guard let request = try SettingArguments.overrides(list).filter else { return nil }
        if !request.window.isAll, options.timeColumn == nil {
            throw .usage("--datetime \(request.window) needs the points' times: give --time COL")
        }
        if let first = request.categories.first, options.categoryColumns.isEmpty {
            throw .usage("--category \(first) needs the points' categories: give --categories \(first.column)")
        }
        if settings.aggregate == .mean {
            throw .usage(
                "--aggregate mean does not take --datetime or --category (the mean's index keeps no times or "
                    + "categories); draw the sum, or filter the file first")
        }
        return request
    }

    /// The views of a file's points by filter.
    ///
    /// - Throws: ``CommandError`` when the file was read without time or category columns.
    static func views(_ file: PointFile, settings: HeatmapSettings) throws(CommandError) -> FilteredLayers {
        guard let filters = file.filters else {
            throw .usage("the filters need the points' --time COL or --categories COL")
        }
        return FilteredLayers(source: filters, settings: settings, capacity: 1)
    }

    /// The filter `request` resolves to over `views`' data.
    ///
    /// - Throws: ``CommandError`` (64) naming a column or value the data do not have.
    static func filter(_ request: LayerFilterRequest, views: FilteredLayers) throws(CommandError) -> PointFilter {
        do {
            return try request.resolved(against: views.facets)
        } catch {
            throw .usage(error.description)
        }
    }

    /// The layer drawing `filter`'s points, or `nil` when it keeps none of positive weight.
    ///
    /// - Throws: ``CommandError`` from the data.
    static func kept(_ filter: PointFilter, views: FilteredLayers) throws(CommandError) -> HeatmapTileLayer? {
        do {
            return try views.layer(for: filter)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// The layer drawing `request`'s points of a file with its own settings those to draw at
    /// `zoom` and `scale` (`--scale-of all`: `base`'s M(z) there); `nil` when no point is kept.
    ///
    /// - Throws: ``CommandError`` for a filter that does not apply to the data.
    static func layer(
        _ request: LayerFilterRequest, file: PointFile, base: HeatmapTileLayer, settings: HeatmapSettings,
        zoom: Int, scale: Int
    ) throws(CommandError) -> HeatmapTileLayer? {
        let drawing: HeatmapSettings
        do {
            drawing = try base.filterSettings(settings, scale: request.scale, zoom: zoom, scale: scale)
        } catch {
            throw CommandError(error.description)
        }
        let views = try views(file, settings: drawing)
        return try kept(try filter(request, views: views), views: views)
    }
}
