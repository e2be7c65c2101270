import HeatmapCore

/// Data a layer can draw filtered (issue 28): what they offer to filter by, and the points a
/// ``PointFilter`` keeps as a source of weights, drawn, searched for M(z) and cached like any
/// other (``FilteredLayers``). Points in memory are a ``FilterIndex``; a database table
/// implements it by pushing the filter down as bound parameters.
package protocol FilterSource: Sendable {
    /// The time range and category values of the data.
    var facets: FilterFacets { get }

    /// The points `filter` keeps.
    ///
    /// - Throws: ``HeatmapError`` when the source cannot answer (a database lost, say).
    func filteredSource(by filter: PointFilter) throws(HeatmapError) -> FilteredSource

    /// The first and last second of the points `filter` keeps, or `nil` when it keeps none:
    /// where an animation's open ends close (a category's first and last point, not the data's).
    ///
    /// - Throws: ``HeatmapError`` when the source cannot answer (a database lost, say).
    func timeRange(keeping filter: PointFilter) throws(HeatmapError) -> ClosedRange<Int64>?
}

/// The points a filter keeps, as a source of weights.
package struct FilteredSource: Sendable {
    /// Their weights, drawn and searched as any source's.
    package var source: any WeightSource
    /// Whether no point of positive weight is kept: every tile is empty (204).
    package var isEmpty: Bool
    /// The memory kept for them while cached (masked copies), in bytes.
    package var byteCount: Int

    /// A filtered source from its parts.
    package init(source: any WeightSource, isEmpty: Bool, byteCount: Int) {
        self.source = source
        self.isEmpty = isEmpty
        self.byteCount = byteCount
    }
}

extension FilterIndex: FilterSource {
    /// The time range and dictionaries of the points.
    package var facets: FilterFacets { FilterFacets(timeRange: timeRange, dictionaries: dictionaries) }

    /// The slabs kept, whole or masked (``filtered(by:)``).
    package func filteredSource(by filter: PointFilter) -> FilteredSource {
        let points = filtered(by: filter)
        return FilteredSource(source: points, isEmpty: points.isEmpty, byteCount: points.byteCount)
    }
}
