import HeatmapTiles

extension TileService {
    /// A document (TileJSON, the catalog, the page) made cheap to fetch again: a strong `ETag`
    /// from its bytes (`If-None-Match` gives 304), the configured `Cache-Control`, and gzip
    /// when `Accept-Encoding` allows it (with its own tag, as a different representation).
    func validated(_ response: HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        guard response.status == .ok else { return response }
        var response = response
        let gzip = Self.acceptsGzip(request.headers["Accept-Encoding"]) && response.body.count >= 256
        var etag = ETag.strong(for: response.body)
        if gzip { etag = String(etag.dropLast()) + "-gzip\"" }
        var headers = HTTPHeaders([
            ("ETag", etag), ("Cache-Control", options.documentCacheControl), ("Vary", "Accept-Encoding"),
        ])
        if ETag.matches(request.headers["If-None-Match"], etag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        if gzip, let compressed = Gzip.compress(response.body) {
            response.body = compressed
            headers.add("Content-Encoding", "gzip")
        }
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }

    /// Whether `Accept-Encoding` fields accept gzip: `gzip`, `x-gzip` or `*`, with no `q=0`.
    static func acceptsGzip(_ fields: [String]) -> Bool {
        var named: Bool?
        var any: Bool?
        for field in fields {
            for element in field.split(separator: ",") {
                let parts = element.split(separator: ";")
                guard let coding = parts.first?.trimmingWhitespace().lowercased() else { continue }
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.trimmingWhitespace().lowercased()
                    if pair.hasPrefix("q="), pair.utf8.count <= 7 { weight = Double(pair.dropFirst(2)) ?? 0 }
                }
                if coding == "gzip" || coding == "x-gzip" { named = weight > 0 }
                if coding == "*" { any = weight > 0 }
            }
        }
        return named ?? any ?? false
    }
}
