extension ConnectionString {
    /// Why libpq would misread the string in a way that prints part of the password, or `nil`.
    ///
    /// libpq ends a URL's user part at the first `@`, so a password holding a raw `@`
    /// (`postgresql://me:p@ss@host/db`) becomes a host name (`ss@host`) that libpq's "could not
    /// translate host name" message then prints. No host name holds an `@`, so an authority
    /// with more than one is refused before libpq sees it.
    var misreadReason: String? {
        guard let scheme = text.firstRange(of: "://"),
            text[..<scheme.lowerBound].allSatisfy({ $0.isLetter })
        else { return nil }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == " " } ?? rest.endIndex
        guard rest[..<authorityEnd].filter({ $0 == "@" }).count > 1 else { return nil }
        return "the URL's user part holds an '@' of its own: write each '@' of the user name or password as %40"
    }
}
