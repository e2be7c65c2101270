import HeatmapCore

/// The filters a request gives (`datetime`, `category`, `scale-of`), read from its settings,
/// before they are resolved against a layer's data (``resolved(against:)``).
package struct LayerFilterRequest: Sendable, Hashable {
    /// The time window (``TimeWindow/all`` when none is given).
    package var window: TimeWindow
    /// The category selections, one a column.
    package var categories: [CategorySelection]
    /// Which points' M(z) colours the tiles.
    package var scale: FilterScale

    /// A request from its parts.
    package init(window: TimeWindow = .all, categories: [CategorySelection] = [], scale: FilterScale = .filter) {
        self.window = window
        self.categories = categories
        self.scale = scale
    }

    /// The filters as the canonical query writes them: `datetime=…&category=…&scale-of=…`.
    package var query: String {
        var items: [(name: String, value: String)] = []
        if !window.isAll { items.append(("datetime", window.description)) }
        items += categories.map { ("category", $0.queryText) }
        if scale != .filter { items.append(("scale-of", scale.rawValue)) }
        return (try? SettingOverrides(query: items))?.query ?? ""
    }

    /// The filter over a data set with these time range and dictionaries.
    ///
    /// - Throws: ``FilterError`` naming a column the data have no category for, or a value no
    ///   point holds.
    package func resolved(against facets: FilterFacets) throws(FilterError) -> PointFilter {
        try PointFilter(window: window, categories: categories, dictionaries: facets.dictionaries)
    }
}

/// What a layer's data offer filters: the range of their times and the values of each
/// category column (``FilterSource/facets``), listed in TileJSON, `/catalog` and `info`.
package struct FilterFacets: Sendable {
    /// The first and last second of the points' times, or `nil` when the data have none.
    package var timeRange: ClosedRange<Int64>?
    /// Each category column's values, with their counts.
    package var dictionaries: [CategoryDictionary]

    /// Facets from their parts.
    package init(timeRange: ClosedRange<Int64>?, dictionaries: [CategoryDictionary]) {
        self.timeRange = timeRange
        self.dictionaries = dictionaries
    }

    /// Whether the data offer anything to filter by.
    package var isEmpty: Bool { timeRange == nil && dictionaries.isEmpty }
}

extension SettingOverrides {
    /// The names of the filters' settings.
    package static let filterNames: Set<String> = ["datetime", "category", "scale-of"]

    /// These overrides' filters alone.
    package var filters: SettingOverrides { keeping(Self.filterNames) }

    /// The filters given, or `nil` when neither `datetime` nor `category` is (`scale-of`
    /// alone changes nothing).
    package var filter: LayerFilterRequest? {
        let window = text(of: "datetime").flatMap { try? TimeWindow(parsing: $0) }
        let categories = texts(of: "category").compactMap { try? CategorySelection(parsing: $0, percentEncoded: true) }
        guard window != nil || !categories.isEmpty else { return nil }
        let scale = text(of: "scale-of").flatMap(FilterScale.init(rawValue:)) ?? .filter
        return LayerFilterRequest(window: window ?? .all, categories: categories, scale: scale)
    }

}

extension CategorySelection {
    /// `COL:V1,V2` with the column and each value percent-encoded (`,` and `:` too): the text
    /// that reads back to this selection, in a query or a flag.
    package var queryText: String {
        QueryEncoding.encode(column, component: true) + ":"
            + values.map { QueryEncoding.encode($0, component: true) }.joined(separator: ",")
    }
}
