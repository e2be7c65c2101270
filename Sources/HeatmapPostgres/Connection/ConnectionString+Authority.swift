extension ConnectionString {
    /// Why libpq would misread the string in a way that shows part of the password as a host,
    /// port or database name, or `nil`.
    ///
    /// libpq reads a URL's user part up to the first `@`, looked for before the first `/`:
    /// a password holding a raw `@` (`postgresql://me:p@ss@host/db`) becomes a host name
    /// (`ss@host`), and one holding a raw `/` (`postgresql://me:pa/ss@host/db`) ends the
    /// authority early, its first half becoming the port and the rest the database name; libpq's
    /// messages and ours would then print them. No host name holds an `@`, and a database
    /// name that holds one is written `%40` (as the password's `@` and `/` must be), so an
    /// authority with more than one `@`, or an `@` in the path (after the authority's first `/`
    /// and before the query), is refused before libpq sees it.
    var misreadReason: String? {
        guard let scheme = text.firstRange(of: "://"),
            text[..<scheme.lowerBound].allSatisfy({ $0.isLetter })
        else { return nil }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        // The query starts at the first '?' after the user part (libpq's user part may hold one).
        let afterUser = authority.lastIndex(of: "@").map { rest.index(after: $0) } ?? rest.startIndex
        let queryStart = rest[afterUser...].firstIndex(of: "?") ?? rest.endIndex
        if authority.filter({ $0 == "@" }).count > 1 {
            return "the URL's user part holds an '@' of its own: write each '@' of the user name or password as %40"
        }
        if authorityEnd < queryStart, rest[authorityEnd..<queryStart].contains("@") {
            return "an '@' follows a '/' in the URL, as when the password holds a '/': write each '/' of the user name "
                + "or password as %2F (and an '@' of the database name as %40)"
        }
        return nil
    }
}
