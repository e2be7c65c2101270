import HeatmapCore

/// The points of a file read with times or categories and the points added to it live
/// (`POST /{layer}/points` with the same columns): filtered as one data set, the file's
/// ``FilterIndex`` as it was read and a second index of every point added since, rebuilt with
/// each addition (O(points added so far)). Codes of the file's values stay; values first seen
/// live get new ones, after the file's.
package struct LiveFilterIndex: Sendable {
    /// The points read from the file.
    package let base: FilterIndex
    /// The points added since, or `nil` before the first.
    package let added: FilterIndex?

    /// The file's points, none added yet.
    package init(base: FilterIndex) {
        self.base = base
        added = nil
    }

    private init(base: FilterIndex, added: FilterIndex) {
        self.base = base
        self.added = added
    }

    /// The number of points added live.
    package var addedCount: Int { added?.count ?? 0 }

    /// These points and `batch`'s (read from a body with the file's columns).
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for a batch of other category
    ///   columns, a column with too many values or too much weight; nothing is added then.
    /// - Complexity: O(points added so far + the batch's) to build their index again.
    package func adding(_ batch: FilterIndex) throws(HeatmapError) -> LiveFilterIndex {
        var builder = FilterIndex.Builder(dictionaries: base.dictionaries, capacity: addedCount + batch.count)
        if let added { try builder.append(contentsOf: added) }
        try builder.append(contentsOf: batch)
        return LiveFilterIndex(base: base, added: builder.build())
    }
}

extension LiveFilterIndex: FilterSource {
    /// The time range of both indexes, and the dictionaries with the values added live.
    package var facets: FilterFacets {
        guard let added else { return base.facets }
        let range: ClosedRange<Int64>?
        switch (base.timeRange, added.timeRange) {
        case (let a?, let b?): range = min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
        case (let a, let b): range = a ?? b
        }
        return FilterFacets(timeRange: range, dictionaries: added.dictionaries)
    }

    /// The first and last second of the points `filter` keeps, of the file and of those added.
    package func timeRange(keeping filter: PointFilter) -> ClosedRange<Int64>? {
        let ranges = [base.timeRange(keeping: filter), added?.timeRange(keeping: filter)].compactMap { $0 }
        guard let low = ranges.map(\.lowerBound).min(), let high = ranges.map(\.upperBound).max() else { return nil }
        return low...high
    }

    /// The points `filter` keeps of the file and of those added, drawn as one.
    package func filteredSource(by filter: PointFilter) -> FilteredSource {
        var points = base.filtered(by: filter)
        if let added { points = points.merged(with: added.filtered(by: filter)) }
        return FilteredSource(source: points, isEmpty: points.isEmpty, byteCount: points.byteCount)
    }
}
