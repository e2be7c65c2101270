import Foundation
import HeatmapKit
import HeatmapWebP

/// What a WebP tile is cached by: the PNG it is made from (its content hash and length, so a
/// new PNG, after a reload or a live change, is a new key) and the quality (`nil`: lossless).
struct WebPTileKey: Hashable, Sendable {
    var pngHash: UInt64
    var pngCount: Int
    var quality: Int?
}

extension TileService {
    /// `/{layer}/{z}/{x}/{y}[@2x|@3x].webp[?webp-quality=N]`: the tile of the same path in `.png`,
    /// with everything the PNG route does (the layer's settings from the query, its cache, 204
    /// for no tile, 400, 503), as a WebP made from the PNG's pixels (lossless, or lossy at
    /// `webp-quality`) and kept in a cache of its own; its ETag is the WebP's. `nil` when the
    /// path is not a tile's `.webp`.
    func webpTile(_ request: HTTPRequest) -> HTTPReply? {
        guard request.path.hasSuffix(".webp"), request.path.count > 5 else { return nil }
        let pngPath = String(request.path.dropLast(5)) + ".png"
        guard case .tile = Route(path: pngPath) else { return nil }
        let route = Route.tile(layer: "", zoom: 0, x: 0, y: 0, scale: 1)
        let quality: Int?
        do {
            quality = try Self.webpQuality(request.queryItems)
        } catch {
            return finish(.text(.badRequest, error.description), route: route)
        }
        var png = HTTPRequest(
            method: request.method, target: pngPath + (request.query.isEmpty ? "" : "?" + request.query),
            minorVersion: request.minorVersion, headers: request.headers)
        // The PNG's own tag would answer 304 for a WebP the client never had.
        png.headers.remove("If-None-Match")
        switch respond(to: png) {
        case .response(let response):
            return webpReply(response, request: request, quality: quality)
        case .deferred(let start):
            return .deferred { [self] completion in
                start { [self] response in
                    switch webpReply(response, request: request, quality: quality) {
                    case .response(let response): completion(response)
                    case .deferred(let next): next(completion)
                    }
                }
            }
        }
    }

    /// `webp-quality=N` (0...100) of a query, read by its row of ``SettingsSchema``; `nil` when
    /// absent (lossless).
    static func webpQuality(_ items: [(name: String, value: String)]) throws(OverrideError) -> Int? {
        let name = SettingsSchema.webpQuality.name
        guard let text = items.last(where: { $0.name == name })?.value else { return nil }
        do {
            return try SettingsSchema.webpQuality(text)
        } catch {
            throw OverrideError(error.description)
        }
    }

    /// The WebP answer to the PNG route's `response`: 200 with the WebP (from its cache, or
    /// made on the render pool), 304 when `If-None-Match` has its tag; anything else (204, an
    /// error) as the PNG route gave it, 304 too for a 204 whose tag matches.
    private func webpReply(_ response: HTTPResponse, request: HTTPRequest, quality: Int?) -> HTTPReply {
        guard response.status == .ok, response.headers.first("Content-Type") == "image/png" else {
            if response.status == .noContent, let tag = response.headers.first("ETag"),
                ETag.matches(request.headers["If-None-Match"], tag)
            {
                var unchanged = response
                unchanged.status = .notModified
                return .response(unchanged)
            }
            return .response(response)
        }
        let key = WebPTileKey(pngHash: ETag.hash(response.body), pngCount: response.body.count, quality: quality)
        if let cached = webpCache[key] { return .response(webpResponse(cached, png: response, request: request)) }
        return .deferred { [self] completion in
            // Requests for a WebP not cached yet share one encode (they come together: each
            // waited for the same PNG render).
            let first = webpInFlight.join(key) { [self] result in
                switch result {
                case .success(let tile): completion(webpResponse(tile, png: response, request: request))
                case .failure(let failure): completion(failureResponse(failure))
                }
            }
            guard first else { return metrics.sharedRender() }
            renderPool.async { [self] in
                webpInFlight.finish(key, with: webpTile(png: response.body, key: key))
            }
        }
    }

    /// The WebP of `png` for `key`, from the cache (made by an encode that finished since the
    /// request looked) or encoded and cached.
    private func webpTile(png: [UInt8], key: WebPTileKey) -> Result<RenderedTile, RenderFailure> {
        if let cached = webpCache[key] { return .success(cached) }
        do {
            let tile = RenderedTile(.image(try WebPEncoder(quality: key.quality).encode(png: png)))
            metrics.webpEncoded()
            webpCache.insert(tile, for: key)
            return .success(tile)
        } catch {
            return .failure(RenderFailure(status: 500, message: "cannot make the WebP: \(error)"))
        }
    }

    /// The PNG route's 200 `png` (its `Cache-Control`, CORS and other fields) with `tile`'s
    /// WebP, tag and type instead; 304 when `If-None-Match` has the WebP's tag.
    private func webpResponse(_ tile: RenderedTile, png: HTTPResponse, request: HTTPRequest) -> HTTPResponse {
        var response = png
        response.headers.set("ETag", tile.etag)
        response.headers.set("Content-Type", "image/webp")
        if ETag.matches(request.headers["If-None-Match"], tile.etag) {
            response.headers.remove("Content-Type")
            response.status = .notModified
            response.body = []
            return response
        }
        response.body = tile.png ?? []
        return response
    }

    /// A TileJSON response as the format asked for: with `format=webp` (and `webp-quality=N`),
    /// its tile URLs end in `.webp` and its documents of other scales ask for WebP too; with
    /// none or `format=png`, as it is; 400 for another.
    func inRequestedFormat(_ response: HTTPResponse, request: HTTPRequest) -> HTTPResponse {
        let items = request.queryItems
        guard response.status == .ok, let format = items.last(where: { $0.name == "format" })?.value,
            format != "png"
        else { return response }
        guard format == "webp" else {
            return .text(.badRequest, "format \"\(format)\" is not png or webp")
        }
        let quality: Int?
        do {
            quality = try Self.webpQuality(items)
        } catch {
            return .text(.badRequest, error.description)
        }
        guard var document = try? JSONDecoder().decode(TileJSON.self, from: Data(response.body)) else {
            return response
        }
        document.tiles = document.tiles.map { Self.webpURL($0, quality: quality) }
        // The document of each scale in WebP too.
        document.scales = document.scales?.map { url in
            url + (url.contains("?") ? "&" : "?") + "format=webp" + (quality.map { "&webp-quality=\($0)" } ?? "")
        }
        return json(document)
    }

    /// A tile URL template in `.png` made `.webp`, with `webp-quality` added to its query.
    static func webpURL(_ url: String, quality: Int?) -> String {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts[0])
        if path.hasSuffix(".png") { path = String(path.dropLast(4)) + ".webp" }
        var query = parts.count > 1 ? String(parts[1]) : ""
        if let quality { query += (query.isEmpty ? "" : "&") + "webp-quality=\(quality)" }
        return query.isEmpty ? path : path + "?" + query
    }
}
