import HeatmapCore

/// Times and categories (``PointReadOptions/timeColumn``, ``PointReadOptions/categoryColumns``):
/// each reader finds the fields' text, and the collector checks it here, so that every format
/// gives the same errors.
struct FilterColumnsState {
    /// The points with their times and codes.
    var builder: FilterIndex.Builder
    /// The time column's name, if read.
    let timeColumn: String?
    /// The kind of the column's first time and the line it is on: a later value of the other
    /// kind is an error.
    var kind: (kind: TimeParser.Kind, line: Int)?
    /// The first and last second read.
    var range: ClosedRange<Int64>?
    /// The time of the point added next (0 without a time column).
    var pendingTime: Int64 = 0
    /// The categories of the point added next, by column.
    var pendingCategories: [String]

    init(options: PointReadOptions, capacity: Int) {
        builder = FilterIndex.Builder(categoryColumns: options.categoryColumns, capacity: capacity)
        timeColumn = options.timeColumn
        pendingCategories = options.categoryColumns.map { _ in "" }
    }

    /// The longest category value, in bytes.
    static let maximumCategoryBytes = 200
}

extension PointCollector {
    /// Why a time field is unusable, or `nil` having kept its second for the next point: it
    /// must be a time ``TimeParser`` reads, of the kind of the column's first value.
    mutating func readTime(_ bytes: some Collection<UInt8>, line: Int) -> String? {
        guard var state = filterColumns, let column = state.timeColumn else { return nil }
        let shown = String(decoding: bytes.prefix(60), as: UTF8.self).escapedForMessage + (bytes.count > 60 ? "…" : "")
        guard let (seconds, kind) = TimeParser.parse(bytes) else {
            if bytes.allSatisfy({ $0 == 32 || $0 == 9 }) {
                return "time (\"\(column)\") is empty: give a time, or --skip-invalid to skip such rows"
            }
            return "time (\"\(column)\") \"\(shown)\" is not a time: expected Unix seconds, a date (2024-03-01) "
                + "or an ISO 8601 date-time (2024-03-01T13:45:00Z, 2024-03-01 13:45+01:00) in years 0000...9999"
        }
        if let first = state.kind, first.kind != kind {
            return "time (\"\(column)\") \"\(shown)\" is \(kind), but the column's first time (line \(first.line)) "
                + "is \(first.kind): one time column holds one kind"
        }
        if state.kind == nil { state.kind = (kind, line) }
        state.pendingTime = seconds
        filterColumns = state
        return nil
    }

    /// Why category `c`'s text is unusable, or `nil` having kept it for the next point: it must
    /// not be empty, nor longer than 200 bytes.
    mutating func readCategory(_ c: Int, _ text: String) -> String? {
        guard filterColumns != nil else { return nil }
        let column = filterColumns?.builder.dictionaries[c].column ?? ""
        if text.isEmpty {
            return "category (\"\(column)\") is empty: give a value, or --skip-invalid to skip such rows"
        }
        if text.utf8.count > FilterColumnsState.maximumCategoryBytes {
            return "category (\"\(column)\") \"\(text.prefix(40).description.escapedForMessage)…\" is longer than "
                + "\(FilterColumnsState.maximumCategoryBytes) bytes"
        }
        filterColumns?.pendingCategories[c] = text
        return nil
    }

    /// Adds the pending time and categories with a point already checked; `nil`, or why the
    /// categories cannot be kept (a column with too many values).
    mutating func addFilterFields(latitude: Double, longitude: Double, weight: Double) -> String? {
        guard var state = filterColumns else { return nil }
        let t = state.pendingTime
        if chunkFields != nil {
            // A streamed chunk: kept beside its point, no index built.
            if state.timeColumn != nil {
                chunkFields?.times.append(t)
                state.range = state.range.map { min($0.lowerBound, t)...max($0.upperBound, t) } ?? t...t
                filterColumns = state
            }
            for c in state.pendingCategories.indices { chunkFields?.categories[c].append(state.pendingCategories[c]) }
            return nil
        }
        filterColumns = nil
        defer { filterColumns = state }
        do {
            try state.builder.append(
                latitude: latitude, longitude: longitude, intensity: weight, time: state.pendingTime,
                categories: state.pendingCategories)
        } catch {
            if case .invalidPoint(_, let reason) = error { return reason }
            return error.description
        }
        state.range = state.range.map { min($0.lowerBound, t)...max($0.upperBound, t) } ?? t...t
        return nil
    }
}
