extension TileService {
    /// The most header names a preflight may ask for, and the longest list, in bytes.
    static let preflightHeaderLimit = (count: 32, bytes: 2048)

    /// `OPTIONS` while CORS is on: a CORS preflight (`Origin` and `Access-Control-Request-Method`)
    /// gets 204 with the methods allowed (GET, HEAD), the headers asked for echoed (header names
    /// only, at most 32) and a day's `Access-Control-Max-Age`; any other `OPTIONS` gets 204 with
    /// `Allow`, as RFC 9110 asks. Header lists that are not names are 400.
    func optionsResponse(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: .noContent)
        response.headers.add("Allow", "GET, HEAD, OPTIONS")
        guard request.headers.first("Origin") != nil,
            let method = request.headers.first("Access-Control-Request-Method"), !method.isEmpty
        else { return response }
        let asked = request.headers["Access-Control-Request-Headers"]
        guard let names = Self.headerNames(asked) else {
            return .text(
                .badRequest,
                "Access-Control-Request-Headers must be a comma-separated list of at most "
                    + "\(Self.preflightHeaderLimit.count) header names (\(Self.preflightHeaderLimit.bytes) bytes)")
        }
        response.headers.add("Access-Control-Allow-Methods", "GET, HEAD")
        if !names.isEmpty { response.headers.add("Access-Control-Allow-Headers", names.joined(separator: ", ")) }
        response.headers.add("Access-Control-Max-Age", "86400")
        response.headers.add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        return response
    }

    /// The header names of `Access-Control-Request-Headers` fields, lowercased; `nil` when one is
    /// not a token (RFC 9110 5.6.2) or the list is longer than the limits.
    static func headerNames(_ fields: [String]) -> [String]? {
        guard fields.reduce(0, { $0 + $1.utf8.count }) <= preflightHeaderLimit.bytes else { return nil }
        var names: [String] = []
        for field in fields {
            for part in field.split(separator: ",", omittingEmptySubsequences: false) {
                let name = part.trimmingWhitespace()
                if name.isEmpty { continue }  // "a, , b": empty list elements are allowed
                guard name.utf8.allSatisfy(\.isTokenCharacter) else { return nil }
                names.append(name.lowercased())
            }
        }
        return names.count <= preflightHeaderLimit.count ? names : nil
    }

}

extension TileService {
    /// `GET, HEAD, OPTIONS` with CORS on, else `GET, HEAD`: the `Allow` of the server's own 405s.
    package var allowedMethods: String { options.cors ? "GET, HEAD, OPTIONS" : "GET, HEAD" }
}
