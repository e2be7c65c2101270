extension JSONRecordInterpreter {
    /// With a value column (``PointReadOptions/valueColumn``), reads the value field of
    /// `object` (a point object, or a feature's properties) into the collector for the points
    /// added next. Returns `false` when the record was rejected: no such field (or no object
    /// to hold it), or a value that is not a finite number.
    func readValue(in object: Int?, record node: Int, label: RecordLabel?, into collector: inout PointCollector)
        throws(PointFileError) -> Bool
    {
        guard let name = options.valueColumn else { return true }
        guard let object else {
            try reject(node, label, "has no properties to hold the value \"\(name)\"", &collector)
            return false
        }
        guard let found = try number(in: object, names: [JSONKey(name)], what: "value", label: label, into: &collector)
        else { return false }
        guard let (value, at) = found else {
            try reject(node, label, "has no value field \"\(name)\"", &collector)
            return false
        }
        if let problem = PointCollector.valueProblem(value, text: tape.describe(at)) {
            try reject(at, label, problem, &collector)
            return false
        }
        collector.pendingValue = value
        return true
    }
}

extension JSONRecordInterpreter {
    /// With time or category columns (``PointReadOptions/timeColumn``,
    /// ``PointReadOptions/categoryColumns``), reads those fields of `object` (a point object, or
    /// a feature's properties) into the collector for the points added next. Returns `false`
    /// when the record was rejected: a field missing (or no object to hold it), a time that is
    /// not one, or a category that is not a string, number or boolean.
    func readFilterFields(in object: Int?, record node: Int, label: RecordLabel?, into collector: inout PointCollector)
        throws(PointFileError) -> Bool
    {
        guard collector.filterColumns != nil else { return true }
        let names = (options.timeColumn.map { [$0] } ?? []) + options.categoryColumns
        guard let object else {
            try reject(node, label, "has no properties to hold \"\(names[0])\"", &collector)
            return false
        }
        if let name = options.timeColumn {
            guard let found = tape.member(of: object, named: [JSONKey(name)]) else {
                try reject(node, label, "has no time field \"\(name)\"", &collector)
                return false
            }
            let field = tape.nodes[found.index]
            guard field.kind == .number || field.kind == .string else {
                try reject(
                    found.index, label, "time (\"\(name)\") is \(tape.describe(found.index)), expected a time",
                    &collector)
                return false
            }
            if let problem = collector.readTime(tape.bytes[field.text], line: field.line) {
                try reject(found.index, label, problem, &collector)
                return false
            }
        }
        for (c, name) in options.categoryColumns.enumerated() {
            guard let found = tape.member(of: object, named: [JSONKey(name)]) else {
                try reject(node, label, "has no category field \"\(name)\"", &collector)
                return false
            }
            let field = tape.nodes[found.index]
            let text: String
            switch field.kind {
            case .string, .number: text = tape.raw(field.text, limit: field.text.count)
            case .boolean: text = field.number == 1 ? "true" : "false"
            default:
                try reject(
                    found.index, label,
                    "category (\"\(name)\") is \(tape.describe(found.index)), expected a string, number or boolean",
                    &collector)
                return false
            }
            if let problem = collector.readCategory(c, text) {
                try reject(found.index, label, problem, &collector)
                return false
            }
        }
        return true
    }
}
