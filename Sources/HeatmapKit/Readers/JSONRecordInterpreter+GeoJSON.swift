extension JSONRecordInterpreter {
    /// A Feature: its geometry's points, weighted by a property (default `weight` or
    /// `intensity`, else 1).
    func feature(_ node: Int, label: RecordLabel?, into collector: inout PointCollector) throws(PointFileError) {
        guard tape.nodes[node].kind == .object else {
            return try reject(node, label, "expected a GeoJSON Feature, found \(tape.describe(node))", &collector)
        }
        let roles: [(what: String?, names: [JSONKey])] = [(nil, JSONKey.geometry), (nil, JSONKey.properties)]
        guard try !rejectsDuplicate(in: node, roles: roles, label: label, into: &collector) else { return }
        guard let shape = tape.member(of: node, named: JSONKey.geometry), tape.nodes[shape.index].kind == .object
        else { return try reject(node, label, "the feature has no geometry (or a null one)", &collector) }
        var weight: (value: Double, node: Int) = (1, node)
        let properties = tape.member(of: node, named: JSONKey.properties).map(\.index).flatMap {
            tape.nodes[$0].kind == .object ? $0 : nil
        }
        if let properties {
            guard try !rejectsDuplicate(in: properties, roles: fieldRoles, label: label, into: &collector) else {
                return
            }
        }
        guard try readValue(in: properties, record: node, label: label, into: &collector) else { return }
        guard try readFilterFields(in: properties, record: node, label: label, into: &collector) else { return }
        if let properties = tape.member(of: node, named: JSONKey.properties),
            tape.nodes[properties.index].kind == .object
        {
            guard
                let found = try number(
                    in: properties.index, names: weightNames, what: "weight", label: label, into: &collector)
            else { return }
            if let found { weight = found }
        }
        if weight.node == node, let name = options.weightColumn {
            return try reject(node, label, "the feature has no property \"\(name)\"", &collector)
        }
        try geometry(shape.index, weight: weight, label: label, into: &collector)
    }

    /// A Point, MultiPoint or GeometryCollection's points.
    func geometry(
        _ node: Int, weight: (value: Double, node: Int), label: RecordLabel?,
        into collector: inout PointCollector
    ) throws(PointFileError) {
        let roles: [(what: String?, names: [JSONKey])] = [
            (nil, JSONKey.type), (nil, JSONKey.coordinates), (nil, JSONKey.geometries),
        ]
        guard try !rejectsDuplicate(in: node, roles: roles, label: label, into: &collector) else { return }
        let type = tape.member(of: node, named: JSONKey.type).flatMap { tape.string($0.index) }
        if type == "GeometryCollection" {
            guard let members = tape.member(of: node, named: JSONKey.geometries),
                tape.nodes[members.index].kind == .array
            else { return try reject(node, label, "the GeometryCollection has no \"geometries\" array", &collector) }
            for child in tape.children(of: members.index) where tape.nodes[child].kind == .object {
                try geometry(child, weight: weight, label: label, into: &collector)
            }
            return
        }
        guard type == "Point" || type == "MultiPoint" else {
            let named = type.map { "geometry type \"\($0)\" is not supported" } ?? "the geometry has no \"type\""
            return try reject(node, label, named + ": only Point and MultiPoint carry points", &collector)
        }
        guard let coordinates = tape.member(of: node, named: JSONKey.coordinates),
            tape.nodes[coordinates.index].kind == .array
        else { return try reject(node, label, "the \(type ?? "") has no \"coordinates\" array", &collector) }
        let positions = type == "Point" ? [coordinates.index] : tape.children(of: coordinates.index)
        for position in positions {
            let values = tape.nodes[position].kind == .array ? tape.children(of: position) : []
            guard values.count >= 2, let longitude = tape.numberValue(values[0]),
                let latitude = tape.numberValue(values[1])
            else {
                try reject(position, label, positionProblem(position, values: values), &collector)
                continue
            }
            try add(
                latitude: (latitude, values[1]), longitude: (longitude, values[0]), weight: weight, label: label,
                into: &collector)
        }
    }
}
