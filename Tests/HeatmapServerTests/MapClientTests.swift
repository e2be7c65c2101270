import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapServer
import HeatmapTiles
import Testing

/// What real map clients tripped over (issue 14): tile sizes, bounds, preflights, empty tiles,
/// revalidation and compression of the documents.
@Suite struct MapClientTests {
    static func object(_ response: TestClient.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func aTileJSONPerScale() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for (suffix, size) in [("", 256), ("@2x", 512), ("@3x", 768)] {
            let json = try Self.object(client.get("/police\(suffix).json"))
            #expect(json["tileSize"] as? Int == size)
            #expect(json["tiles"] as? [String] == ["http://127.0.0.1/police/{z}/{x}/{y}\(suffix).png"])
        }
        let tuned = try Self.object(client.get("/police@2x.json?radius=30"))
        #expect(tuned["tiles"] as? [String] == ["http://127.0.0.1/police/{z}/{x}/{y}@2x.png?radius=30"])
        let catalog = try Self.object(client.get("/catalog"))
        let layer = try #require((catalog["layers"] as? [[String: Any]])?.first)
        let scales = try #require(layer["scales"] as? [String])
        #expect(scales == ["police.json", "police@2x.json", "police@3x.json"].map { "http://127.0.0.1/" + $0 })
        for url in scales {
            #expect(try client.get(String(url.dropFirst("http://127.0.0.1".count))).status == 200)
        }
        #expect(try client.get("/@2x.json").status == 404)
    }

    /// A tile's box in degrees: west, south, east, north.
    static func box(zoom: Int, x: Int, y: Int) -> [Double] {
        let n = Double(1 << zoom)
        return [
            Double(x) / n * 360 - 180, WebMercator.latitude(worldFraction: Double(y + 1) / n),
            Double(x + 1) / n * 360 - 180, WebMercator.latitude(worldFraction: Double(y) / n),
        ]
    }

    @Test(arguments: [0, 5, 9]) func boundsHoldEveryTileThatDraws(minZoom: Int) throws {
        var options = ServerOptions()
        options.minZoom = minZoom
        let server = try TestServer(options: options)
        defer { server.stop() }
        let client = try server.client()
        let bounds = try #require(try Self.object(client.get("/police.json"))["bounds"] as? [Double])
        // The points' own box lies strictly inside.
        #expect(bounds[0] < 141.083 && bounds[1] < -38.7597 && bounds[2] > 149.751 && bounds[3] > -34.1674)
        // 9/469/313 draws (a blob reaching past the last station) and must meet the bounds.
        #expect(try client.get("/police/9/469/313.png").status == 200)
        let tile = Self.box(zoom: 9, x: 469, y: 313)
        #expect(tile[0] < tile[2] && tile[0] > 149.751, "the tile lies east of every point")
        #expect(tile[0] < bounds[2] && tile[2] > bounds[0] && tile[1] < bounds[3] && tile[3] > bounds[1])
        // Every tile of zoom 9 around the data that draws meets the bounds.
        for x in 465...472 {
            for y in 305...316 where try client.get("/police/9/\(x)/\(y).png").status == 200 {
                let b = Self.box(zoom: 9, x: x, y: y)
                #expect(b[0] < bounds[2] && b[2] > bounds[0] && b[1] < bounds[3] && b[3] > bounds[1], "9/\(x)/\(y)")
            }
        }
    }

    @Test func corsPreflightIsAnswered() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let preflight = try client.get(
            "/police/6/57/39.png",
            headers: [
                "Origin": "http://maps.example", "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "Authorization, X-Requested-With",
            ], method: "OPTIONS")
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "*")
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD")
        #expect(preflight.header("Access-Control-Allow-Headers") == "authorization, x-requested-with")
        #expect(preflight.header("Access-Control-Max-Age") == "86400")
        // Not header names, or too many of them: refused, and nothing of them echoed.
        let bad = try client.get(
            "/police.json",
            headers: [
                "Origin": "http://a", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "a b",
            ],
            method: "OPTIONS")
        #expect(bad.status == 400 && bad.header("Access-Control-Allow-Headers") == nil)
        let many = (0..<40).map { "x-\($0)" }.joined(separator: ",")
        let tooMany = try client.get(
            "/police.json",
            headers: [
                "Origin": "http://a", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": many,
            ],
            method: "OPTIONS")
        #expect(tooMany.status == 400)
        // OPTIONS that is no preflight: the methods allowed, as HTTP says.
        let plain = try client.get("/catalog", method: "OPTIONS")
        #expect(plain.status == 204 && plain.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(plain.header("Access-Control-Allow-Methods") == nil)
        let health = try server.client().get("/health")
        #expect(health.status == 200 && health.text.hasPrefix("ok"), "\(health.status) \(health.text)")
    }

    @Test func withoutCORSOptionsStays405() throws {
        var options = ServerOptions()
        options.cors = false
        let server = try TestServer(options: options)
        defer { server.stop() }
        let response = try server.client().get(
            "/police/6/57/39.png", headers: ["Origin": "http://a", "Access-Control-Request-Method": "GET"],
            method: "OPTIONS")
        #expect(response.status == 405 && response.header("Allow") == "GET, HEAD")
        #expect(response.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func emptyTilesAsTransparentPNGs() throws {
        let plain = try TestServer()
        #expect(try plain.client().get("/police/9/0/0.png").status == 204)
        let drawn = try plain.client().get("/police/6/57/39.png").body
        plain.stop()
        var options = ServerOptions()
        options.emptyTile = .png
        let server = try TestServer(options: options)
        defer { server.stop() }
        let client = try server.client()
        for (suffix, side) in [("", 256), ("@2x", 512), ("@3x", 768)] {
            let response = try client.get("/police/9/0/0\(suffix).png")
            #expect(response.status == 200 && response.header("Content-Type") == "image/png")
            #expect(response.header("Cache-Control") == "public, max-age=300")
            let image = try PNGDecoder.decode(response.body)
            #expect(image.width == side && image.height == side)
            #expect(image.pixels.allSatisfy { $0 == 0 })
            let etag = try #require(response.header("ETag"))
            #expect(try client.get("/police/9/0/0\(suffix).png", headers: ["If-None-Match": etag]).status == 304)
        }
        // Tiles that draw are unchanged.
        #expect(try client.get("/police/6/57/39.png").body == drawn)
    }
}
