import HeatmapCore
import HeatmapKit

extension TileService {
    /// `POST /{layer}/points` appends the body's points to an in-memory heatmap layer,
    /// `DELETE /{layer}/points` removes them (matched by position and weight); both need
    /// `Authorization: Bearer TOKEN` (``ServerOptions/writeToken``). The body is read by the
    /// points readers in the format its `Content-Type` names, gzip inflated; a bad body is 400
    /// naming the line and nothing changes. A layer read with `--time` or `--categories` takes
    /// points carrying those columns (the readers' errors for a missing or bad one), drawn in
    /// its filtered tiles too. 200 with `{"added"|"removed": N, "points": N,
    /// "generation": G, "tilesDropped": D}` (the cached tiles the change reached, dropped).
    func points(_ request: HTTPRequest, layer name: String) -> HTTPReply {
        let route = Route.points(layer: name)
        let found = registry.registered(name)
        guard let layer = found as? any PointsLayer, layer.takesPoints else {
            if found != nil {
                var response = HTTPResponse.text(
                    .methodNotAllowed, "only in-memory heatmap layers take points; \(name) is not one")
                response.headers.add("Allow", options.cors ? "GET, HEAD, OPTIONS" : "GET, HEAD")
                return finish(response, route: route)
            }
            return finish(.text(.notFound, "no layer \(name)"), route: route)
        }
        guard request.method == "POST" || request.method == "DELETE" else {
            var response = HTTPResponse.text(.methodNotAllowed, "POST appends points, DELETE removes them")
            response.headers.add("Allow", options.cors ? "POST, DELETE, OPTIONS" : "POST, DELETE")
            return finish(response, route: route)
        }
        guard let token = options.writeToken else {
            return finish(
                .text(.forbidden, "writing points is off: start the server with --write-token-file FILE"), route: route)
        }
        guard token.accepts(authorization: request.headers.first("Authorization")) else {
            var response = HTTPResponse.text(.unauthorized, "send Authorization: Bearer TOKEN with the write token")
            response.headers.add("WWW-Authenticate", "Bearer realm=\"heatmap\"")
            return finish(response, route: route)
        }
        let format: PointFormat
        switch Self.bodyFormat(request) {
        case .success(let named): format = named
        case .failure(let refusal): return finish(.text(.unsupportedMediaType, refusal.message), route: route)
        }
        let removing = request.method == "DELETE"
        let body = request.body ?? []
        if case .success(.gzip) = Self.bodyCoding(request), let refusal = Self.gzipRefusal(body) {
            return finish(.text(.badRequest, refusal), route: route)
        }
        return .deferred { [self] completion in
            renderQueue.async { [self] in
                completion(decorate(apply(body, format: format, removing: removing, to: layer), route: route))
            }
        }
    }

    /// Reads the body and changes the layer: 200 with what was done, or 400 naming the fault.
    private func apply(_ body: [UInt8], format: PointFormat, removing: Bool, to layer: any PointsLayer)
        -> HTTPResponse
    {
        guard !body.isEmpty else { return .text(.badRequest, "the body holds no points") }
        let read: (points: [WeightedLatLng], filters: FilterIndex?, report: PointFileReport)
        var options = layer.bodyOptions
        options.format = format
        do {
            read = try PointFileReader.readFilteredPoints(bytes: body, name: "request body", options: options)
        } catch {
            return .text(.badRequest, error.description)
        }
        let done: PointsChange
        do {
            done = try layer.change(read.points, filtered: read.filters, removing: removing)
        } catch {
            return .text(.badRequest, "request body: \(error.description); nothing was changed")
        }
        var response = HTTPResponse(
            status: .ok,
            body: Array(
                ("{\"\(removing ? "removed" : "added")\": \(done.change.count), \"points\": \(done.change.pointCount), "
                    + "\"generation\": \(done.generation), \"tilesDropped\": \(done.tilesDropped)}\n")
                    .utf8))
        response.headers.add("Content-Type", "application/json")
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// Why a body's media type or coding is refused (415).
    struct MediaRefusal: Error {
        var message: String
    }

    /// The points format that `Content-Type` names, after ``bodyCoding(_:)`` accepts the coding;
    /// gzip (`Content-Encoding`, or sniffed by the readers) is inflated whatever the type.
    static func bodyFormat(_ request: HTTPRequest) -> Result<PointFormat, MediaRefusal> {
        if case .failure(let refusal) = bodyCoding(request) { return .failure(refusal) }
        let type = (request.headers.first("Content-Type") ?? "").split(separator: ";").first.map {
            $0.trimmingWhitespace().lowercased()
        }
        switch type ?? "" {
        case "text/csv": return .success(.csv)
        case "text/tab-separated-values": return .success(.tsv)
        case "application/json": return .success(.json)
        case "application/geo+json": return .success(.geojson)
        case "application/x-ndjson", "application/ndjson", "application/geo+json-seq": return .success(.ndjson)
        default:
            return .failure(
                MediaRefusal(
                    message:
                        "Content-Type \(type ?? "(none)") is not a points format: text/csv, text/tab-separated-values, "
                        + "application/json, application/geo+json or application/x-ndjson"))
        }
    }
}
