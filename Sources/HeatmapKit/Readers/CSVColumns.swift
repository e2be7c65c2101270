import Foundation

/// Where a CSV header puts the latitude, longitude and weight.
struct CSVColumns {
    static let latitudeNames = ["lat", "latitude", "y"]
    static let longitudeNames = ["lng", "lon", "long", "longitude", "x"]
    static let weightNames = ["weight", "intensity", "value", "count"]

    var latitude: Int
    var longitude: Int
    var weight: Int?
    /// The header's names, for messages.
    var names: [String]
    /// The value's column, for the mean (only with ``PointReadOptions/valueColumn``).
    var value: Int? = nil
    /// The time's column (only with ``PointReadOptions/timeColumn``).
    var time: Int? = nil
    /// The category columns (``PointReadOptions/categoryColumns``), in the options' order.
    var categories: [Int] = []

    /// The number of fields a row needs.
    var needed: Int { max(latitude, longitude, weight ?? 0, value ?? 0, time ?? 0, categories.max() ?? 0) + 1 }

    /// Finds the columns in a header, by the names given or else the usual ones.
    ///
    /// - Returns: the columns, or the reason they cannot be found.
    static func find(in names: [String], options: PointReadOptions) -> Result<CSVColumns, ColumnProblem> {
        let folded = names.map { $0.trimmingSpaces.lowercased() }
        func column(_ given: String?, _ usual: [String]) -> Int? {
            if let given {
                return names.firstIndex(of: given) ?? folded.firstIndex(of: given.trimmingSpaces.lowercased())
            }
            for name in usual { if let index = folded.firstIndex(of: name) { return index } }
            return nil
        }
        let shown = names.prefix(20).map { "\"\($0.count > 40 ? $0.prefix(40) + "…" : $0)\"" }
        let seen =
            "the header has " + shown.joined(separator: ", ")
            + (names.count > 20 ? " and \(names.count - 20) more columns" : "")
        let latitude = column(options.latitudeColumn, latitudeNames)
        let longitude = column(options.longitudeColumn, longitudeNames)
        let weight = column(options.weightColumn, weightNames)
        if latitude == nil && longitude == nil && options.latitudeColumn == nil && options.longitudeColumn == nil {
            return .failure(
                ColumnProblem(
                    "no recognisable columns: \(seen); expected a latitude (lat, latitude, y) and a longitude "
                        + "(lng, lon, long, longitude, x), or name them with --lat COL --lng COL"
                        + (names.count == 1 && names[0].contains(";")
                            ? " (columns separated by ';' are not supported: use commas or tabs)" : "")))
        }
        guard let latitude else {
            let wanted = options.latitudeColumn.map { "no latitude column \"\($0)\"" } ?? "no latitude column"
            return .failure(ColumnProblem("\(wanted): \(seen); name it with --lat COL"))
        }
        guard let longitude else {
            let wanted = options.longitudeColumn.map { "no longitude column \"\($0)\"" } ?? "no longitude column"
            return .failure(ColumnProblem("\(wanted): \(seen); name it with --lng COL"))
        }
        if let given = options.weightColumn, weight == nil {
            return .failure(ColumnProblem("no weight column \"\(given)\": \(seen)"))
        }
        var found = CSVColumns(latitude: latitude, longitude: longitude, weight: weight, names: names)
        if let given = options.valueColumn {
            guard let value = column(given, []) else {
                return .failure(ColumnProblem("no value column \"\(given)\": \(seen); name it with --value COL"))
            }
            found.value = value
        }
        if let given = options.timeColumn {
            guard let time = column(given, []) else {
                return .failure(ColumnProblem("no time column \"\(given)\": \(seen); name it with --time COL"))
            }
            found.time = time
        }
        for given in options.categoryColumns {
            guard let category = column(given, []) else {
                return .failure(
                    ColumnProblem("no category column \"\(given)\": \(seen); name them with --categories COL[,COL...]"))
            }
            found.categories.append(category)
        }
        if let problem = duplicateProblem(in: names, options: options) { return .failure(problem) }
        return .success(found)
    }

    struct ColumnProblem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}

extension CSVPointParser {
    mutating func readHeader(_ record: Range<Int>, line: Int) throws(PointFileError) {
        if let problem = split(record, limit: Int.max) {
            throw PointFileError(path: input.path, line: line, reason: problem)
        }
        guard fields.count <= 10_000 else {
            throw PointFileError(
                path: input.path, line: line, reason: "the header has \(fields.count) columns, more than 10000")
        }
        let names = fields.map { text($0, limit: 200) }
        if !fields.isEmpty, fields.allSatisfy({ number(stripped($0)) != nil }) {
            throw PointFileError(
                path: input.path, line: line,
                reason: "looks like data, not a header: the first line must name the columns, e.g. lat,lng,weight")
        }
        switch CSVColumns.find(in: names, options: options) {
        case .success(let found): columns = found
        case .failure(let problem): throw PointFileError(path: input.path, line: line, reason: problem.reason)
        }
    }

    mutating func readRow(_ record: Range<Int>, line: Int, into collector: inout PointCollector)
        throws(PointFileError)
    {
        if let problem = split(record, limit: neededFields) {
            return try collector.reject(line: line, problem)
        }
        guard fields.count >= neededFields else {
            var roles: [(Int, String)] = [
                (columns.latitude, "latitude"), (columns.longitude, "longitude"), (columns.weight ?? -1, "weight"),
                (columns.value ?? -1, "value"), (columns.time ?? -1, "time"),
            ]
            roles += columns.categories.map { ($0, "category") }
            let missing = roles.filter { $0.0 >= fields.count }.max { $0.0 < $1.0 }
            let name = missing.map { "the \($0.1) is field \($0.0 + 1) (\"\(columns.names[$0.0])\")" } ?? ""
            return try collector.reject(line: line, "has \(fields.count) fields, but \(name)")
        }
        let latitudeField = stripped(fields[columns.latitude])
        guard let latitude = number(latitudeField) else {
            return try collector.reject(line: line, describe("latitude", latitudeField))
        }
        if let problem = PointCollector.latitudeProblem(latitude, text: text(latitudeField)) {
            return try collector.reject(line: line, problem)
        }
        let longitudeField = stripped(fields[columns.longitude])
        guard let longitude = number(longitudeField) else {
            return try collector.reject(line: line, describe("longitude", longitudeField))
        }
        if let problem = PointCollector.longitudeProblem(longitude, text: text(longitudeField)) {
            return try collector.reject(line: line, problem)
        }
        var weight = 1.0
        if let column = columns.weight {
            let weightField = stripped(fields[column])
            guard let value = number(weightField) else {
                return try collector.reject(line: line, describe("weight", weightField))
            }
            if let problem = PointCollector.weightProblem(value, text: text(weightField)) {
                return try collector.reject(line: line, problem)
            }
            if let problem = collector.totalWeightProblem(value, text: text(weightField)) {
                return try collector.reject(line: line, problem)
            }
            weight = value
        }
        if let column = columns.value {
            let valueField = stripped(fields[column])
            guard let value = number(valueField) else {
                return try collector.reject(line: line, describe("value", valueField))
            }
            if let problem = PointCollector.valueProblem(value, text: text(valueField)) {
                return try collector.reject(line: line, problem)
            }
            collector.pendingValue = value
        }
        if collector.filterColumns != nil, let problem = readFilterFields(into: &collector, line: line) {
            return try collector.reject(line: line, problem)
        }
        if hasMoreFieldsThanHeader(record) {
            if collector.longRows.count == 0 { collector.longRows = (0, line, headerFields) }
            collector.longRows.count += 1
        }
        try collector.add(latitude: latitude, longitude: longitude, weight: weight, line: line)
    }

    /// Reads the row's time and categories into the collector; why one is unusable, or `nil`.
    mutating func readFilterFields(into collector: inout PointCollector, line: Int) -> String? {
        if let column = columns.time {
            let field = stripped(fields[column])
            let bytes = UnsafeBufferPointer(start: input.storage + field.lowerBound, count: field.count)
            if let problem = collector.readTime(bytes, line: line) { return problem }
        }
        for (c, column) in columns.categories.enumerated() {
            let field = stripped(fields[column])
            let bytes = UnsafeBufferPointer(start: input.storage + field.lowerBound, count: field.count)
            var text = String(decoding: bytes, as: UTF8.self)
            if text.contains("\"\"") { text = text.replacingOccurrences(of: "\"\"", with: "\"") }
            if let problem = collector.readCategory(c, text) { return problem }
        }
        return nil
    }

    /// Why a field is not a number.
    func describe(_ name: String, _ field: Range<Int>) -> String {
        if field.isEmpty {
            if name == "value" { return "value is empty: give a number, or --skip-invalid to skip such rows" }
            return name == "weight"
                ? "weight is empty: give a number (0 draws nothing), or --skip-invalid to skip such rows"
                : "\(name) is empty"
        }
        return "\(name) \"\(text(field))\" is not a number"
    }
}
