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
