/// Which points a request keeps: those in a time window whose categories are among the values
/// selected, resolved against a data set's dictionaries (a mask over each column's codes).
package struct PointFilter: Sendable, Hashable {
    /// The time window.
    package var window: TimeWindow
    /// For each category column (by its place in the data set's dictionaries), the codes kept,
    /// as a mask over the codes; `nil` for a column not filtered.
    package var masks: [[Bool]?]

    /// Keeps every point.
    package static let all = PointFilter(window: .all, masks: [])

    /// A filter from its window and masks.
    package init(window: TimeWindow, masks: [[Bool]?]) {
        self.window = window
        self.masks = masks
    }

    /// Whether the filter keeps every point whatever its time and categories.
    package var keepsAll: Bool { window.isAll && masks.allSatisfy { $0 == nil } }

    /// The filter of a window and category selections over a data set's dictionaries.
    ///
    /// - Throws: ``FilterError`` naming a column the data set has no category for, a value no
    ///   point holds, a column selected twice, or more than
    ///   ``CategorySelection/maximumValues`` values in all.
    package init(window: TimeWindow, categories: [CategorySelection], dictionaries: [CategoryDictionary])
        throws(FilterError)
    {
        var masks = [[Bool]?](repeating: nil, count: dictionaries.count)
        let total = categories.reduce(0) { $0 + $1.values.count }
        guard total <= CategorySelection.maximumValues else {
            throw FilterError(
                "the request names \(total) category values; at most \(CategorySelection.maximumValues) in all")
        }
        for selection in categories {
            guard let c = dictionaries.firstIndex(where: { $0.column == selection.column }) else {
                let known = dictionaries.map { $0.column.quotedForFilter }.joined(separator: ", ")
                throw FilterError(
                    "category column \(selection.column.quotedForFilter) is not in the data: "
                        + (known.isEmpty
                            ? "it has no category columns (read them with --categories COL)" : "it has \(known)"))
            }
            guard masks[c] == nil else {
                throw FilterError(
                    "category column \(selection.column.quotedForFilter) is given twice; list its values once, "
                        + "COL:V1,V2")
            }
            var mask = [Bool](repeating: false, count: dictionaries[c].values.count)
            for value in selection.values {
                guard let code = dictionaries[c].code(of: value) else {
                    throw FilterError(
                        "category \(selection.column.quotedForFilter) has no value \(value.quotedForFilter) in the data"
                    )
                }
                mask[Int(code)] = true
            }
            masks[c] = mask
        }
        self.init(window: window, masks: masks)
    }
}
