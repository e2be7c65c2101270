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
}
