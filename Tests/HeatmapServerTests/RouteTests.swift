import Foundation
import HeatmapServer
import Testing

@Suite struct RouteTests {
    @Test func tilesInThreeScalesWithHeaders() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for (suffix, width) in [("", 256), ("@2x", 512), ("@3x", 768)] {
            let response = try client.get("/police/6/57/39\(suffix).png")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/png")
            #expect(pngWidth(response.body) == width)
            #expect(response.header("ETag")?.hasPrefix("\"") == true)
            #expect(response.header("Cache-Control") == "public, max-age=300")
            #expect(response.header("Access-Control-Allow-Origin") == "*")
            #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        }
    }

    @Test func emptyTilesAre204() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.client().get("/police/6/0/0.png")
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Length") == nil)
    }

    @Test(arguments: [
        "/police/23/0/0.png", "/police/6/64/0.png", "/police/6/0/64.png", "/police/a/0/0.png", "/police/6/-1/0.png",
        "/police/6/0/0@4x.png", "/police/6/0/+1.png", "/police/6/57/39.png?radius=5", "/police/6/57/39.png?opacity=2",
        "/police/6/57/39.png?gradient=nope", "/police/6/57/39.png?gradient=ff0000:1,00ff00:0.5",
        "/police/6/57/39.png?max=-1", "/police/999999999/0/0.png",
    ])
    func badCoordinatesAndParametersAre400(_ path: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.client().get(path)
        #expect(response.status == 400, "\(path): \(response.text)")
        #expect(!response.text.isEmpty)
    }

    @Test(arguments: [
        "/nope/6/57/39.png", "/nope.json", "/police/6/57", "/police/6/57/39.jpg", "/leaflet/../../../etc/passwd",
        "/leaflet/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd", "/catalog/", "/favicon.ico", "/police%2ejson",
    ])
    func unknownLayersAndPathsAre404(_ path: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.client().get(path)
        #expect(response.status == 404, "\(path)")
        #expect(!response.text.contains("root:"))
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT"])
    func otherMethodsAre405(_ method: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.client().get("/police/6/57/39.png", method: method)
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, OPTIONS")  // OPTIONS with CORS on (MapClientTests)
    }

    @Test func headHasTheHeadersOfGetWithoutTheBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let get = try client.get("/police/6/57/39.png")
        let head = try client.get("/police/6/57/39.png", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "\(get.body.count)")
        #expect(head.header("ETag") == get.header("ETag"))
        // The connection is still in step: the next response is whole.
        #expect(try client.get("/health").text == "ok\n")
    }

    @Test func etagsAreStrongAndAnswer304() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let first = try client.get("/police/6/57/39.png")
        let etag = try #require(first.header("ETag"))
        #expect(!etag.hasPrefix("W/"))
        let again = try client.get("/police/6/57/39.png")
        #expect(again.header("ETag") == etag)
        #expect(again.body == first.body)
        for value in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
            let conditional = try client.get("/police/6/57/39.png", headers: ["If-None-Match": value])
            #expect(conditional.status == 304, "\(value)")
            #expect(conditional.body.isEmpty)
            #expect(conditional.header("ETag") == etag)
        }
        #expect(try client.get("/police/6/57/39.png", headers: ["If-None-Match": "\"other\""]).status == 200)
        // Different content, different tag.
        #expect(try client.get("/police/6/57/39.png?gradient=fire").header("ETag") != etag)
    }

    @Test func tileJSONDescribesTheLayer() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.client().get("/police.json")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(json["tilejson"] as? String == "3.0.0")
        #expect(json["name"] as? String == "police")
        #expect(json["tiles"] as? [String] == ["http://127.0.0.1/police/{z}/{x}/{y}.png"])
        #expect(json["minzoom"] as? Int == 0)
        #expect(json["maxzoom"] as? Int == 22)
        let bounds = try #require(json["bounds"] as? [Double])
        // The points' box (141.083, -38.7597, 149.751, -34.1674) padded by the radius at zoom 0.
        #expect(bounds[0] < 141.083 && bounds[1] < -38.7597 && bounds[2] > 149.751 && bounds[3] > -34.1674)
        let center = try #require(json["center"] as? [Double])
        #expect(center.count == 3 && center[0] > 141 && center[0] < 150 && center[1] > -39 && center[1] < -34)
        #expect(json["attribution"] is String)
        let tuned = try server.client().get("/police.json?radius=30&gradient=fire&ignored=1")
        let tunedJSON = try #require(try JSONSerialization.jsonObject(with: Data(tuned.body)) as? [String: Any])
        #expect(tunedJSON["tiles"] as? [String] == ["http://127.0.0.1/police/{z}/{x}/{y}.png?radius=30&gradient=fire"])
    }

    @Test func catalogListsLayersAndGradients() throws {
        let server = try TestServer()
        defer { server.stop() }
        let response = try server.client().get("/catalog")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let layers = try #require(json["layers"] as? [[String: Any]])
        #expect(layers.map { $0["name"] as? String } == ["police"])
        #expect(layers.first?["points"] as? Int == 345)
        #expect((json["gradients"] as? [String])?.contains("default") == true)
    }

    @Test func healthAndMetrics() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.get("/health").status == 200)
        _ = try client.get("/police/6/57/39.png")
        _ = try client.get("/police/6/57/39.png")
        _ = try client.get("/nope/1/1/1.png")
        let metrics = try client.get("/metrics")
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = metrics.text
        for line in [
            "heatmap_http_requests_total{route=\"tile\",status=\"200\"} 2",
            "heatmap_http_requests_total{route=\"tile\",status=\"404\"} 1",
            "heatmap_tile_cache_hits_total 1", "heatmap_tile_cache_misses_total 1",
            "heatmap_tile_render_seconds_count 1", "heatmap_tile_render_seconds_bucket{le=\"+Inf\"} 1",
            "# TYPE heatmap_tile_render_seconds histogram", "heatmap_layer_points{layer=\"police\"} 345",
            "heatmap_connections_open 1", "heatmap_errors_total 0",
        ] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
    }

    @Test func mapPageAndLocalLeaflet() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let page = try client.get("/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("L.map(\"map\")"))
        #expect(page.text.contains("/catalog"))
        if FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js") {
            #expect(page.text.contains("src=\"/leaflet/leaflet.js\""))
            let script = try client.get("/leaflet/leaflet.js")
            #expect(script.status == 200)
            #expect(script.header("Content-Type")?.hasPrefix("text/javascript") == true)
            #expect(try client.get("/leaflet/leaflet.css").status == 200)
        } else {
            #expect(page.text.contains("integrity=\"sha256-"))
        }
    }

    @Test func corsCanBeTurnedOffAndCacheControlSet() throws {
        var options = ServerOptions()
        options.cors = false
        options.tileCacheControl = "public, max-age=60, immutable"
        let server = try TestServer(options: options)
        defer { server.stop() }
        let response = try server.client().get("/police/6/57/39.png")
        #expect(response.header("Access-Control-Allow-Origin") == nil)
        #expect(response.header("Cache-Control") == "public, max-age=60, immutable")
    }
}
