import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTiles
import Testing

/// `POST` and `DELETE /{layer}/points` through a real server on loopback.
@Suite struct LivePointsTests {
    static let secret = "t0ken-9f1c-live"

    static func server(token: Bool = true, maxBody: Int = 1 << 20) throws -> TestServer {
        var options = ServerOptions()
        options.writeToken = token ? try WriteToken(Self.secret) : nil
        var limits = HTTPLimits()
        limits.maxBodyBytes = maxBody
        limits.bodiesNeedToken = true
        limits.bodyToken = options.writeToken
        return try TestServer(limits: limits, options: options)
    }

    /// Sends one request with a body and reads the answer.
    static func send(
        _ client: TestClient, _ method: String, _ path: String, body: [UInt8], headers: [String: String] = [:]
    ) throws -> TestClient.Response {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try client.send(Array((text + "\r\n").utf8) + body)
        return try client.read()
    }

    static let authorized = ["Authorization": "Bearer \(secret)", "Content-Type": "text/csv"]
    static let melbourne = Array("lat,lng,weight\n-37.81,144.96,40\n".utf8)

    @Test("without --write-token-file the routes answer 403; without or with a wrong token 401")
    func refusals() throws {
        let closed = try Self.server(token: false)
        defer { closed.stop() }
        let answer = try Self.send(
            closed.client(), "POST", "/police/points", body: Self.melbourne, headers: Self.authorized)
        #expect(answer.status == 403)
        #expect(answer.text.contains("--write-token-file"))

        let server = try Self.server()
        defer { server.stop() }
        for headers in [
            ["Content-Type": "text/csv"], ["Authorization": "Bearer wrong", "Content-Type": "text/csv"],
            ["Authorization": "Basic \(Self.secret)", "Content-Type": "text/csv"],
            ["Authorization": "Bearer \(Self.secret)x", "Content-Type": "text/csv"],
        ] {
            // Refused from the head, the body unread: the connection closes after the answer.
            let client = try server.client()
            let response = try Self.send(client, "POST", "/police/points", body: Self.melbourne, headers: headers)
            #expect(client.isClosedByServer())
            #expect(response.status == 401)
            #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(!response.text.contains(Self.secret))
        }
        let client = try server.client()
        let get = try client.get("/police/points")
        #expect(get.status == 405)
        #expect(get.header("Allow")?.contains("POST, DELETE") == true)
        #expect(try client.get("/nobody/points").status == 404)
        #expect(!String(describing: server.service.options).contains(Self.secret))
        #expect("\(try WriteToken(Self.secret))" == "***")
    }

    @Test("an unknown Content-Type is 415, a body over the limit 413 and the connection closed")
    func mediaAndSize() throws {
        let server = try Self.server(maxBody: 1024)
        defer { server.stop() }
        let client = try server.client()
        var headers = Self.authorized
        headers["Content-Type"] = "text/plain"
        #expect(try Self.send(client, "POST", "/police/points", body: Self.melbourne, headers: headers).status == 415)
        headers["Content-Type"] = "text/csv"
        headers["Content-Encoding"] = "br"
        #expect(try Self.send(client, "POST", "/police/points", body: Self.melbourne, headers: headers).status == 415)
        let big = try server.client()
        try big.send(
            "POST /police/points HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Self.secret)\r\nContent-Length: 5000\r\n\r\n"
        )
        let response = try big.read()
        #expect(response.status == 413)
        #expect(big.isClosedByServer())
        // Without the token the body is never read: 401 from the head alone, and the connection closed.
        let stranger = try server.client()
        try stranger.send("POST /police/points HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n")
        let refused = try stranger.read()
        #expect(refused.status == 401)
        #expect(stranger.isClosedByServer())
    }

    @Test("a bad body is 400 naming the line, and nothing is applied")
    func badBody() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        let before = try client.get("/police/7/115/78.png")
        let body = Array("lat,lng\n-37.8,144.9\n-37.9,abc\n".utf8)
        let response = try Self.send(client, "POST", "/police/points", body: body, headers: Self.authorized)
        #expect(response.status == 400)
        #expect(response.text.hasPrefix("request body:3:"))
        let missing = Array("[{\"lat\": 1, \"lng\": 2}]".utf8)
        var json = Self.authorized
        json["Content-Type"] = "application/json"
        let removal = try Self.send(client, "DELETE", "/police/points", body: missing, headers: json)
        #expect(removal.status == 400)
        #expect(removal.text.contains("nothing was changed"))
        #expect(try client.get("/police/7/115/78.png").body == before.body)
    }

    @Test("appends and removals show in the next tile and in TileJSON; removing restores the bytes")
    func appendAndRemove() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        let before = try client.get("/police/7/115/78.png")
        let far = try client.get("/police/7/100/60.png")
        let document = try client.get("/police.json")
        let added = try Self.send(client, "POST", "/police/points", body: Self.melbourne, headers: Self.authorized)
        #expect(added.status == 200)
        #expect(added.text.contains("\"added\": 1") && added.text.contains("\"points\": 346"))
        let after = try client.get("/police/7/115/78.png")
        #expect(after.status == 200 && after.body != before.body)
        #expect(after.header("ETag") != before.header("ETag"))
        // Far away: the same tile (the same ETag), unless M(7) moved.
        #expect(try client.get("/police/7/100/60.png").status == far.status)
        // GeoJSON, gzipped, somewhere new: TileJSON's bounds grow.
        let feature = """
            {"type": "Feature", "geometry": {"type": "Point", "coordinates": [150.0, -20.0]}, "properties": {}}
            """
        var geo = Self.authorized
        geo["Content-Type"] = "application/geo+json"
        geo["Content-Encoding"] = "gzip"
        let zipped = try #require(Gzip.compress(Array(feature.utf8)))
        #expect(try Self.send(client, "POST", "/police/points", body: zipped, headers: geo).status == 200)
        #expect(try client.get("/police.json").header("ETag") != document.header("ETag"))
        var json = Self.authorized
        json["Content-Type"] = "application/x-ndjson"
        let back = Array("{\"lat\": -37.81, \"lng\": 144.96, \"weight\": 40}\n{\"lat\": -20, \"lng\": 150}\n".utf8)
        let removed = try Self.send(client, "DELETE", "/police/points", body: back, headers: json)
        #expect(removed.status == 200)
        #expect(removed.text.contains("\"removed\": 2") && removed.text.contains("\"points\": 345"))
        let restored = try client.get("/police/7/115/78.png")
        #expect(restored.body == before.body)
        #expect(restored.header("ETag") == before.header("ETag"))
        #expect(!(try client.get("/metrics").text.contains(Self.secret)))
    }
}
