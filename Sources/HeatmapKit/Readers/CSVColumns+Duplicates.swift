/// A header that names one column twice: an error, not a silent choice of the first.
extension CSVColumns {
    /// Why the header is ambiguous: two columns that both name the latitude, longitude,
    /// weight or value (by the usual names, or by the name given with a flag), or `nil`.
    /// Columns a flag leaves unused may share names.
    static func duplicateProblem(in names: [String], options: PointReadOptions) -> ColumnProblem? {
        let folded = names.map { $0.trimmingSpaces.lowercased() }
        let roles: [(what: String, flag: String, given: String?, usual: [String])] = [
            ("latitude", "--lat", options.latitudeColumn, latitudeNames),
            ("longitude", "--lng", options.longitudeColumn, longitudeNames),
            ("weight", "--weight", options.weightColumn, weightNames),
            ("value", "--value", options.valueColumn, []),
        ]
        // A column a flag names belongs to that flag, not to another column's usual names.
        let flagged = Set(roles.compactMap { $0.given?.trimmingSpaces.lowercased() })
        for role in roles {
            let matches: [Int]
            if let given = role.given {
                let exact = names.indices.filter { names[$0] == given }
                let wanted = given.trimmingSpaces.lowercased()
                matches = exact.isEmpty ? folded.indices.filter { folded[$0] == wanted } : exact
            } else {
                matches = folded.indices.filter { role.usual.contains(folded[$0]) && !flagged.contains(folded[$0]) }
            }
            guard matches.count >= 2 else { continue }
            let shown = { (i: Int) in "\(i + 1) (\"\(names[i].count > 40 ? names[i].prefix(40) + "…" : names[i])\")" }
            let hint =
                role.given == nil
                ? "keep one, or name the one to use with \(role.flag) COL" : "keep one, or rename the other"
            return ColumnProblem(
                "columns \(shown(matches[0])) and \(shown(matches[1])) are both the \(role.what); \(hint)")
        }
        return nil
    }
}
