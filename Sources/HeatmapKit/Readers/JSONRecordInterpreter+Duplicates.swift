/// An object that gives a key the reader uses twice (two `"lat"`, or `"lat"` and
/// `"latitude"`): an error, not a silent choice of the first.
extension JSONTape {
    /// The first two members of an object whose keys are among `names` (compared without
    /// case, as ``member(of:named:)`` does), or `nil`.
    func twoMembers(of index: Int, named names: [JSONKey]) -> (first: Int, second: Int)? {
        guard nodes[index].kind == .object else { return nil }
        var first: Int? = nil
        var child = index + 1
        while child < nodes[index].end {
            if names.contains(where: { keyEquals(nodes[child].key, $0.folded) }) {
                if let first { return (first, child) }
                first = child
            }
            child = nodes[child].end
        }
        return nil
    }
}

extension JSONRecordInterpreter {
    /// The keys a point object's fields are read from: what each is, and its names.
    var fieldRoles: [(what: String?, names: [JSONKey])] {
        [("weight", weightNames)] + (options.valueColumn.map { [("value", [JSONKey($0)])] } ?? [])
    }

    /// Rejects the record (returning `true`) when `object` gives one of the roles twice.
    func rejectsDuplicate(
        in object: Int, roles: [(what: String?, names: [JSONKey])], label: RecordLabel?,
        into collector: inout PointCollector
    ) throws(PointFileError) -> Bool {
        for role in roles {
            guard let (first, second) = tape.twoMembers(of: object, named: role.names) else { continue }
            let firstKey = tape.text(tape.nodes[first].key)
            let secondKey = tape.text(tape.nodes[second].key)
            let reason =
                role.what.map { "the \($0) is given twice (\"\(firstKey)\" and \"\(secondKey)\"): keep one" }
                ?? "\"\(secondKey)\" is given twice: keep one"
            try reject(second, label, reason, &collector)
            return true
        }
        return false
    }
}
