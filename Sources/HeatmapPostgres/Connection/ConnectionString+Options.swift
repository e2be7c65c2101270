import CPostgres

extension ConnectionString {
    /// The keywords the string sets and their values, as libpq parses them (a URL's parts
    /// become `host`, `port`, `dbname`, `user`, `password`, …); `nil` when libpq cannot parse
    /// it. Nothing comes from `PG*` variables or `.pgpass`.
    var options: [(keyword: String, value: String)]? {
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(text, &message) else {
            if let message { PQfreemem(message) }
            return nil
        }
        defer { PQconninfoFree(parsed) }
        var found: [(keyword: String, value: String)] = []
        var option = parsed
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { found.append((String(cString: keyword), String(cString: value))) }
            option += 1
        }
        return found
    }
}
