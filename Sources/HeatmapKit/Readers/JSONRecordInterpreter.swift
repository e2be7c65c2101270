/// Finds the points in one parsed JSON record: an object with `lat` and `lng` (Google's
/// example), a GeoJSON Feature, FeatureCollection, or Point, MultiPoint or
/// GeometryCollection geometry. GeoJSON positions are `[longitude, latitude, …]`.
struct JSONRecordInterpreter {
    let tape: JSONTape
    let options: PointReadOptions

    let keys: JSONFieldKeys

    var latitudeNames: [JSONKey] { keys.latitude }
    var longitudeNames: [JSONKey] { keys.longitude }
    var weightNames: [JSONKey] { keys.weight }

    func reject(_ node: Int, _ label: RecordLabel?, _ reason: String, _ collector: inout PointCollector)
        throws(PointFileError)
    {
        let place = label.map { "\($0.kind) \($0.number): " } ?? ""
        try collector.reject(line: tape.nodes[node].line, column: tape.nodes[node].column, place + reason)
    }

    func record(_ node: Int, label: RecordLabel?, into collector: inout PointCollector) throws(PointFileError) {
        guard tape.nodes[node].kind == .object else {
            return try reject(
                node, label,
                "expected an object with \"lat\" and \"lng\" or a GeoJSON Feature, found "
                    + tape.describe(node), &collector)
        }
        let roles: [(what: String?, names: [JSONKey])] = [
            ("latitude", latitudeNames), ("longitude", longitudeNames), (nil, JSONKey.type), (nil, JSONKey.features),
        ]
        guard try !rejectsDuplicate(in: node, roles: roles, label: label, into: &collector) else { return }
        if tape.member(of: node, named: latitudeNames) != nil || tape.member(of: node, named: longitudeNames) != nil {
            return try plain(node, label: label, into: &collector)
        }
        switch tape.member(of: node, named: JSONKey.type).flatMap({ tape.string($0.index) }) {
        case "Feature"?:
            try feature(node, label: label, into: &collector)
        case "FeatureCollection"?:
            guard let features = tape.member(of: node, named: JSONKey.features),
                tape.nodes[features.index].kind == .array
            else { return try reject(node, label, "the FeatureCollection has no \"features\" array", &collector) }
            for (i, child) in tape.children(of: features.index).enumerated() {
                try feature(child, label: RecordLabel(kind: "feature", number: i), into: &collector)
            }
        case "Point"?, "MultiPoint"?, "GeometryCollection"?:
            guard try readValue(in: nil, record: node, label: label, into: &collector) else { return }
            guard try readFilterFields(in: nil, record: node, label: label, into: &collector) else { return }
            try geometry(node, weight: (1, node), label: label, into: &collector)
        case let type?:
            try reject(
                node, label,
                "GeoJSON type \"\(type)\" is not supported: only Point and MultiPoint geometries carry points",
                &collector)
        case nil:
            let keys = tape.children(of: node).prefix(10).map { "\"\(tape.text(tape.nodes[$0].key))\"" }
            try reject(
                node, label,
                "has no \"\(latitudeNames[0].name)\" and \"\(longitudeNames[0].name)\" fields and is not GeoJSON; it has "
                    + (keys.isEmpty ? "no fields" : keys.joined(separator: ", ")), &collector)
        }
    }

    /// A number field's value; rejects (returning `nil`) when missing or not a number.
    func number(
        in node: Int, names: [JSONKey], what: String, label: RecordLabel?, into collector: inout PointCollector
    ) throws(PointFileError) -> (value: Double, node: Int)?? {
        guard let found = tape.member(of: node, named: names) else { return .some(nil) }
        guard let value = tape.numberValue(found.index) else {
            let kind = tape.nodes[found.index].kind
            let text = tape.describe(found.index)
            let shown = kind == .string ? "\"\(text)\"" : text
            let hint = what == "weight" && kind == .null ? " (give a number; 0 draws nothing)" : ""
            try reject(
                found.index, label, "\(what) (\"\(found.name)\") is \(shown), expected a number\(hint)", &collector)
            return nil
        }
        return .some((value, found.index))
    }

    func plain(_ node: Int, label: RecordLabel?, into collector: inout PointCollector) throws(PointFileError) {
        guard try !rejectsDuplicate(in: node, roles: fieldRoles, label: label, into: &collector) else { return }
        guard
            let latitudeField = try number(
                in: node, names: latitudeNames, what: "latitude", label: label, into: &collector),
            let longitudeField = try number(
                in: node, names: longitudeNames, what: "longitude", label: label, into: &collector),
            let weightField = try number(in: node, names: weightNames, what: "weight", label: label, into: &collector)
        else { return }
        guard let latitude = latitudeField else {
            return try reject(node, label, "has no \"\(latitudeNames[0].name)\" field", &collector)
        }
        guard let longitude = longitudeField else {
            return try reject(node, label, "has no \"\(longitudeNames[0].name)\" field", &collector)
        }
        if weightField == nil, let name = options.weightColumn {
            return try reject(node, label, "has no \"\(name)\" field", &collector)
        }
        guard try readValue(in: node, record: node, label: label, into: &collector) else { return }
        guard try readFilterFields(in: node, record: node, label: label, into: &collector) else { return }
        try add(
            latitude: latitude, longitude: longitude, weight: weightField ?? (1, node), label: label,
            into: &collector)
    }

    func add(
        latitude: (value: Double, node: Int), longitude: (value: Double, node: Int),
        weight: (value: Double, node: Int), label: RecordLabel?, into collector: inout PointCollector
    ) throws(PointFileError) {
        if let problem = PointCollector.latitudeProblem(latitude.value, text: tape.describe(latitude.node)) {
            return try reject(latitude.node, label, problem, &collector)
        }
        if let problem = PointCollector.longitudeProblem(longitude.value, text: tape.describe(longitude.node)) {
            return try reject(longitude.node, label, problem, &collector)
        }
        if let problem = PointCollector.weightProblem(weight.value, text: tape.describe(weight.node)) {
            return try reject(weight.node, label, problem, &collector)
        }
        if let problem = collector.totalWeightProblem(weight.value, text: tape.describe(weight.node)) {
            return try reject(weight.node, label, problem, &collector)
        }
        try collector.add(
            latitude: latitude.value, longitude: longitude.value, weight: weight.value,
            line: tape.nodes[latitude.node].line)
    }
}

/// Names a record in messages: `element 12`, `feature 3`.
struct RecordLabel {
    var kind: String
    var number: Int
}
