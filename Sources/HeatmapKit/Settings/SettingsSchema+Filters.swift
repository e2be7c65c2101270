import HeatmapCore

/// The filters (issue 28): which points a request draws, `datetime=START/END` and
/// `category=COL:V1,V2`, and which M(z) colours them, `scale-of=filter|all`. Rows like every
/// other (one name and parser for the flag, the configuration key and the query parameter), but
/// they change no ``HeatmapSettings``: a layer that takes filters reads them from the overrides
/// (``SettingOverrides/filter``), and they key its caches as every setting does.
extension SettingsSchema {
    static let filters: [SettingRow] = [datetime, category, scaleOf]

    static let datetime = SettingRow(
        "datetime", placeholder: "START/END",
        help: "only the points of this time window: START/END, the end excluded, '..' for\n"
            + "an open end, one time for that second (Unix seconds, 2024-03-01, 2024-03-01T12:00Z)"
    ) { (text) throws(SettingError) in
        do throws(FilterError) {
            return SettingValue(try TimeWindow(parsing: text).description) { _ in }
        } catch {
            throw SettingError(error.description)
        }
    }

    static let category = SettingRow(
        "category", placeholder: "COL:V1,V2",
        help: "only the points whose COL is one of the values; repeat for other columns\n"
            + "(the column and values percent-encoded, as in a URL: %2C is a comma in a value)",
        repeatable: true, percentEncoded: true
    ) { (text) throws(SettingError) in
        do throws(FilterError) {
            // Echoed as given (values de-duplicated); keyed by the set, so `kind:b,a` shares `kind:a,b`'s caches.
            let selection = try CategorySelection(parsing: text, percentEncoded: true)
            let key = CategorySelection(column: selection.column, values: selection.values.sorted()).queryText
            return SettingValue(selection.queryText, key: key) { _ in }
        } catch {
            throw SettingError(error.description)
        }
    }

    static let scaleOf = SettingRow(
        "scale-of", placeholder: "S",
        help: "filter (default): M(z) of the points the filters keep; all: of every point, so\n"
            + "that windows compare"
    ) { (text) throws(SettingError) in
        guard let scale = FilterScale(rawValue: text) else {
            throw SettingError("scale-of \"\(text)\" is not filter or all")
        }
        return SettingValue(scale.rawValue) { _ in }
    }

    /// Checks the category selections together: one a column, at most
    /// ``CategorySelection/maximumValues`` values in all.
    ///
    /// - Throws: ``SettingError`` naming the column given twice, or the count.
    static func checkCategories(_ texts: [String]) throws(SettingError) {
        var columns: Set<Substring> = []
        var total = 0
        for text in texts {
            let column = text.prefix { $0 != ":" }
            guard columns.insert(column).inserted else {
                let name = CategorySelection.percentDecoded(column) ?? String(column)
                throw SettingError(
                    "category column \"\(name.prefix(60))\" is given twice; list its values once, "
                        + "category=COL:V1,V2")
            }
            total += text.split(separator: ",").count
        }
        guard total <= CategorySelection.maximumValues else {
            throw SettingError(
                "category names \(total) values; one request may name at most \(CategorySelection.maximumValues)")
        }
    }
}

/// Which points' M(z) colours a filtered tile (`scale-of`).
package enum FilterScale: String, Sendable, Hashable, CaseIterable {
    /// M(z) of the points the filter keeps: a rare category is not washed out.
    case filter
    /// M(z) of every point: windows and categories compare with each other.
    case all
}
