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
        try given(list, options: options, settings: settings)?.filter
    }

    /// The filters' settings given (`--datetime`, `--category`, `--scale-of`), or `nil` when
    /// neither `--datetime` nor `--category` is; checked as ``request(_:options:settings:)``.
    static func given(_ list: ArgumentList, options: PointReadOptions, settings: HeatmapSettings)
        throws(CommandError) -> SettingOverrides?
    {
        let filters = try SettingArguments.overrides(list).filters
        guard let request = filters.filter else { return nil }
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
        return filters
    }

    /// The views of a file's points by filter.
    ///
    /// - Throws: ``CommandError`` when the file was read without time or category columns.
    static func views(_ file: PointFile, settings: HeatmapSettings) throws(CommandError) -> FilteredLayers {
        try views(file.filters, settings: settings)
    }

    /// The views of data by filter (a file's points, a table's rows).
    ///
    /// - Throws: ``CommandError`` when the data were read without time or category columns.
    static func views(_ filters: (any FilterSource)?, settings: HeatmapSettings) throws(CommandError)
        -> FilteredLayers
    {
        guard let filters else {
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
}
