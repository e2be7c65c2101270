import HeatmapCore
import HeatmapKit

/// A table's filters as a layer draws them (issue 28's capability, ``FilterSource``): the
/// time range and category values read once for the version of the table it stands for, and
/// for each ``PointFilter`` the source that pushes it down (``PostgresSource/filtered(window:categories:)``),
/// its value sets being the values of the masks' codes.
package struct PostgresFilters: FilterSource {
    /// The table (a pinned version of it when served).
    package let source: PostgresSource
    /// The time range and category values of the rows.
    package let facets: FilterFacets

    /// Reads `source`'s time range and category values (one statement a column, one snapshot).
    ///
    /// - Throws: ``PostgresError`` when the database fails or a column holds too many values.
    package init(source: PostgresSource) throws(PostgresError) {
        self.source = source
        let found = try source.filterFacets()
        facets = FilterFacets(timeRange: found.timeRange, dictionaries: found.dictionaries)
    }

    /// The rows `filter` keeps, and whether none of positive weight is (one `EXISTS`).
    ///
    /// - Throws: ``HeatmapError`` for the database's failure (a 503 when served).
    package func filteredSource(by filter: PointFilter) throws(HeatmapError) -> FilteredSource {
        do {
            let kept = try source.filtered(window: filter.window, categories: selections(filter))
            let space = try PixelSpace(zoom: 0, scale: 1)
            let world = PixelRect(x: 0, y: 0, width: space.worldSize, height: space.worldSize)
            let empty = try !kept.holdsWeight(in: world, space: space)
            return FilteredSource(source: kept, isEmpty: empty, byteCount: 0)
        } catch {
            throw HeatmapError(sourceError: error)
        }
    }

    /// The first and last second of the rows `filter` keeps (``PostgresSource/keptTimeRange()``
    /// of the source pushing it down: one statement, its values bound).
    ///
    /// - Throws: ``HeatmapError`` for the database's failure (a 503 when served).
    package func timeRange(keeping filter: PointFilter) throws(HeatmapError) -> ClosedRange<Int64>? {
        do {
            return try source.filtered(window: filter.window, categories: selections(filter)).keptTimeRange()
        } catch {
            throw HeatmapError(sourceError: error)
        }
    }

    /// The category selections of `filter`'s masks: the values of the codes each keeps.
    private func selections(_ filter: PointFilter) -> [CategorySelection] {
        var selections: [CategorySelection] = []
        for (column, mask) in filter.masks.enumerated() {
            guard let mask, column < facets.dictionaries.count else { continue }
            let dictionary = facets.dictionaries[column]
            let values = mask.indices.filter { mask[$0] && $0 < dictionary.values.count }.map { dictionary.values[$0] }
            selections.append(CategorySelection(column: dictionary.column, values: values))
        }
        return selections
    }
}
