extension JSONRecordInterpreter {
    /// Why a GeoJSON position is not `[longitude, latitude]` numbers, saying what it holds: not
    /// an array, too few values, or which coordinate is not a number.
    func positionProblem(_ position: Int, values: [Int]) -> String {
        let expected = "a position must be [longitude, latitude]"
        guard tape.nodes[position].kind == .array else { return "\(expected), found \(tape.describe(position))" }
        guard values.count >= 2 else {
            return "\(expected), found an array of \(values.count) value\(values.count == 1 ? "" : "s")"
        }
        for (index, name) in [(0, "longitude"), (1, "latitude")] where tape.numberValue(values[index]) == nil {
            let text = tape.describe(values[index])
            let shown = tape.nodes[values[index]].kind == .string ? "\"\(text)\"" : text
            return "\(expected): its \(name) is \(shown), expected a number"
        }
        return expected
    }
}
