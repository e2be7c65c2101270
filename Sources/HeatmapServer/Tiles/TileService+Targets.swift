extension TileService {
    /// Why a request target is refused before any route sees it, or `nil`: 404 for a path (no
    /// resource has such a name), 400 for a query. Routes match
    /// the path still percent-encoded against names fit for URLs, and no path or parameter ever
    /// names a file or a cache entry that was not checked, but these are refused outright so that
    /// nothing behind the server (a proxy, a log reader) is fooled either: `.` and `..` segments,
    /// plain or encoded (`%2E%2E`); encoded slashes, backslashes and control characters (`%2F`,
    /// `%5C`, `%00`); malformed escapes and bytes that are not UTF-8, overlong forms included
    /// (`%C0%AE`, `%E0%80%AF`); the same in the query's names and values.
    static func targetRefusal(path: String, query: String) -> (HTTPStatus, String)? {
        if query.isEmpty, isPlain(path) { return nil }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            if segment == "." || segment == ".." {
                return (.notFound, "the path may not hold \".\" or \"..\" segments")
            }
            guard segment.utf8.contains(UInt8(ascii: "%")) else { continue }
            guard let decoded = PercentDecoding.decode(segment) else {
                return (
                    .notFound,
                    "the path holds a malformed percent-encoding or bytes that are not UTF-8 "
                        + "(overlong forms such as %C0%AE included)"
                )
            }
            if decoded == "." || decoded == ".." {
                return (.notFound, "the path may not hold encoded \".\" or \"..\" segments")
            }
            if decoded.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
            ) {
                return (.notFound, "the path may not hold encoded slashes, backslashes or control characters")
            }
        }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            for part in pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) {
                guard let decoded = PercentDecoding.decode(part) else {
                    return (
                        .badRequest,
                        "the query holds a malformed percent-encoding or bytes that are not UTF-8 "
                            + "(overlong forms such as %C0%AE included)"
                    )
                }
                if decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    return (.badRequest, "the query may not hold control characters")
                }
            }
        }
        return nil
    }

    /// Whether a path has no `%` and no `.` or `..` segment, over its bytes (most requests):
    /// then nothing in it can be refused, and the checks above need not split or decode it.
    private static func isPlain(_ path: String) -> Bool {
        // The segment under way (after the first `/`, as above): its length and whether all dots.
        var (length, allDots, afterSlash) = (0, true, false)
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") { return false }
            if byte == UInt8(ascii: "/") {
                if afterSlash, allDots, (1...2).contains(length) { return false }
                (length, allDots, afterSlash) = (0, true, true)
            } else {
                length += 1
                allDots = allDots && byte == UInt8(ascii: ".")
            }
        }
        return !(afterSlash && allDots && (1...2).contains(length))
    }
}
