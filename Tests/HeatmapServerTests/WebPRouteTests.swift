import Dispatch
import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapWebP
import Synchronization
import Testing

/// `/{layer}/{z}/{x}/{y}[@2x].webp`: the PNG route's tile as WebP, with its own tag, cache, 204s
/// and errors; TileJSON's `?format=webp`.
@Suite struct WebPRouteTests {
    @Test("a .webp tile decodes to the PNG tile's pixels, has its own ETag and answers 304 to it")
    func losslessTile() throws {
        let server = try TestServer(settings: .paletteDefault)
        defer { server.stop() }
        let client = try server.client()
        for path in ["/police/6/57/39", "/police/6/57/39@2x", "/police/7/115/78@3x"] {
            let png = try client.get(path + ".png?radius=30")
            let webp = try client.get(path + ".webp?radius=30")
            #expect(webp.status == 200 && webp.header("Content-Type") == "image/webp", "\(path)")
            #expect(webp.header("Cache-Control") == png.header("Cache-Control"))
            let pixels = try PNGDecoder.decode(png.body)
            #expect(WebPDecoding.rgba(webp.body) == pixels, "\(path)")
            let tag = try #require(webp.header("ETag"))
            #expect(tag != png.header("ETag"))
            // Cached: the same bytes again, and 304 for the WebP's own tag (not the PNG's).
            #expect(try client.get(path + ".webp?radius=30").body == webp.body)
            #expect(try client.get(path + ".webp?radius=30", headers: ["If-None-Match": tag]).status == 304)
            let pngTag = try #require(png.header("ETag"))
            #expect(try client.get(path + ".webp?radius=30", headers: ["If-None-Match": pngTag]).status == 200)
        }
    }

    @Test("webp-quality makes a lossy tile of the same size; a bad one, a bad tile and an empty one answer as PNG does")
    func qualityAndErrors() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let lossless = try client.get("/police/6/57/39@2x.webp")
        let lossy = try client.get("/police/6/57/39@2x.webp?webp-quality=60")
        #expect(lossy.status == 200 && lossy.body != lossless.body)
        let decoded = try #require(WebPDecoding.rgba(lossy.body))
        #expect(decoded.width == 512 && decoded.height == 512)
        for quality in ["101", "-1", "high"] {
            let response = try client.get("/police/6/57/39.webp?webp-quality=\(quality)")
            #expect(response.status == 400 && response.text.contains("webp-quality"), "\(quality)")
        }
        #expect(try client.get("/police/6/57/39.webp?radius=99").status == 400)
        #expect(try client.get("/police/30/0/0.webp").status == 400)
        #expect(try client.get("/nothing/6/57/39.webp").status == 404)
        let empty = try client.get("/police/3/0/0.webp")
        #expect(empty.status == 204)
        let tag = try #require(empty.header("ETag"))
        #expect(try client.get("/police/3/0/0.webp", headers: ["If-None-Match": tag]).status == 304)
    }

    @Test("with --empty-tile png an empty tile is a transparent WebP")
    func emptyTileAsImage() throws {
        var options = ServerOptions()
        options.emptyTile = .png
        let server = try TestServer(options: options)
        defer { server.stop() }
        let response = try server.client().get("/police/3/0/0@2x.webp")
        #expect(response.status == 200)
        let image = try #require(WebPDecoding.rgba(response.body))
        #expect(image == RGBAImage(transparentWidth: 512, height: 512))
    }

    @Test("TileJSON ?format=webp lists .webp tiles with the quality; every document names both formats")
    func tileJSON() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let plain = try JSONSerialization.jsonObject(with: Data(try client.get("/police.json").body)) as? [String: Any]
        #expect(plain?["formats"] as? [String] == ["png", "webp"])
        #expect((plain?["tiles"] as? [String])?.first?.hasSuffix("/police/{z}/{x}/{y}.png") == true)
        let webp = try client.get("/police@2x.json?format=webp&webp-quality=80&radius=30")
        let document = try JSONSerialization.jsonObject(with: Data(webp.body)) as? [String: Any]
        let tiles = try #require(document?["tiles"] as? [String])
        #expect(tiles.count == 1 && tiles[0].hasSuffix("/police/{z}/{x}/{y}@2x.webp?radius=30&webp-quality=80"))
        let scales = try #require(document?["scales"] as? [String])
        #expect(scales.allSatisfy { $0.hasSuffix("format=webp&webp-quality=80") })
        #expect(try client.get("/police.json?format=png").body == (try client.get("/police.json").body))
        let bad = try client.get("/police.json?format=gif")
        #expect(bad.status == 400 && bad.text.contains("png or webp"))
        #expect(try client.get("/police.json?format=webp&webp-quality=300").status == 400)
    }

    @Test("many requests at once for one WebP tile not cached yet share one encode, and all get its bytes")
    func oneEncodePerTileWhenManyAskAtOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        let clients = try (0..<16).map { _ in try server.client() }
        let paths = ["/police/9/462/314@2x.webp", "/police/9/462/314@2x.webp?webp-quality=70"]
        let bodies = Mutex<[String: Set<[UInt8]>]>([:])
        let statuses = Mutex<[Int]>([])
        // Every client asks for the same two tiles (one lossless, one lossy) that nobody asked for before.
        DispatchQueue.concurrentPerform(iterations: clients.count) { n in
            for path in paths {
                let response = try? clients[n].get(path)
                statuses.withLock { $0.append(response?.status ?? 0) }
                if let body = response?.body { bodies.withLock { _ = $0[path, default: []].insert(body) } }
            }
        }
        #expect(statuses.withLock { $0 } == [Int](repeating: 200, count: 2 * clients.count))
        #expect(bodies.withLock { $0.mapValues(\.count) } == [paths[0]: 1, paths[1]: 1])
        // One PNG render (the two share it: the quality is not the PNG's), one encode each WebP.
        #expect(try server.metric("heatmap_tile_render_seconds_count") == 1)
        #expect(try server.metric("heatmap_webp_encodes_total") == 2)
    }
}
