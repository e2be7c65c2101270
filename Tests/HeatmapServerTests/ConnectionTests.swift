import HeatmapServer
import HeatmapTestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for _ in 0..<50 {
            let response = try client.get("/health")
            #expect(response.status == 200)
            #expect(response.header("Connection") == nil)
        }
        #expect(try server.metric("heatmap_connections_accepted_total") == 1 + 1)  // plus the metrics client
    }

    @Test func http10AndConnectionCloseEndTheConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let old = try server.client()
        try old.send("GET /health HTTP/1.0\r\n\r\n")
        let response = try old.read()
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(old.isClosedByServer())
        let kept = try server.client()
        try kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.read().header("Connection") == "keep-alive")
        try kept.send("GET /police/6/57/39.png HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.read().header("Connection") == "keep-alive")
        let closing = try server.client()
        #expect(try closing.get("/health", headers: ["Connection": "close"]).header("Connection") == "close")
        #expect(closing.isClosedByServer())
    }

    @Test func closeWinsOverKeepAliveOnTheWire() throws {
        let server = try TestServer()
        defer { server.stop() }
        // The tile drawn first (a debug build's zoom-6 render can take seconds under load), so the
        // connections below are answered from the cache; each waits for its answer and for the
        // close with a generous bound rather than a tight deadline.
        #expect(try server.client(timeout: 60).get("/police/6/57/39.png").status == 200)
        for (version, fields) in [
            ("1.0", "Connection: keep-alive\r\nConnection: close\r\n"), ("1.0", "Connection: keep-alive, close\r\n"),
            ("1.1", "Host: x\r\nConnection: keep-alive\r\nConnection: close\r\n"),
            ("1.1", "Host: x\r\nConnection: close, keep-alive\r\n"),
        ] {
            let client = try server.client(timeout: 60)
            try client.send("GET /police/6/57/39.png HTTP/\(version)\r\n\(fields)\r\n")
            let response = try client.read()
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close", "HTTP/\(version) \(fields)")
            #expect(client.isClosedByServer(), "HTTP/\(version) \(fields)")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let paths = [
            "/police/6/57/39.png", "/health", "/police/6/0/0.png", "/police/7/115/78.png", "/catalog", "/nope",
        ]
        let batch = paths.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined()
        try client.send(batch + "HEAD /police/6/57/39.png HTTP/1.1\r\nHost: x\r\n\r\n")
        let statuses = try paths.map { _ in try client.read().status }
        #expect(statuses[0] == 200 && statuses[1] == 200 && statuses[2] == 204 && statuses[4] == 200)
        #expect(statuses[5] == 404)
        let head = try client.read(headOnly: true)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(try client.get("/health").text == "ok\n")
    }

    @Test func deepPipelinesOfLargeResponsesAllArrive() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let tiles = (0..<6).flatMap { dx in (0..<6).map { dy in "/police/8/\(228 + dx)/\(154 + dy)@3x.png" } }
        // Many megabytes of responses, more than the server buffers before it waits for the client.
        let batch = (0..<4).flatMap { _ in tiles }
        try client.send(batch.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        var bytes = 0
        for _ in batch {
            let response = try client.read()
            #expect([200, 204].contains(response.status))
            bytes += response.body.count
        }
        #expect(bytes > 2 << 20)
        #expect(try client.get("/health").status == 200)
    }

    @Test func pipelineSplitAcrossWritesAtEveryByte() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let text = "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /police.json HTTP/1.1\r\nHost: x\r\n\r\n"
        for byte in text.utf8 { try client.send([byte]) }
        #expect(try client.read().text == "ok\n")
        #expect(try client.read().status == 200)
    }

    @Test func oversizedHeadsAreRefusedAndTheServerLivesOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        let long = try server.client()
        try long.send("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try long.read().status == 414)
        #expect(long.isClosedByServer())
        let big = try server.client()
        try big.send(
            "GET / HTTP/1.1\r\nHost: x\r\n"
                + String(repeating: "X-Filler: " + String(repeating: "b", count: 1000) + "\r\n", count: 40))
        #expect(try big.read().status == 431)
        let many = try server.client()
        try many.send("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<120).map { "X-\($0): y\r\n" }.joined() + "\r\n")
        #expect(try many.read().status == 431)
        let version = try server.client()
        try version.send("GET / HTTP/3.0\r\nHost: x\r\n\r\n")
        #expect(try version.read().status == 505)
        let garbage = try server.client()
        try garbage.send("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03} TLS hello\r\n\r\n")
        #expect(try garbage.read().status == 400)
        #expect(try server.client().get("/health").status == 200)
        #expect(try server.metric("heatmap_malformed_requests_total") == 5)
    }

    @Test func bodiesAreRefusedAndTheConnectionClosed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let post = try server.client()
        try post.send("POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        let response = try post.read()
        #expect(response.status == 405)
        #expect(response.header("Connection") == "close")
        #expect(post.isClosedByServer())
        let get = try server.client()
        try get.send("GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        #expect(try get.read().status == 400)
    }

    @Test func idleConnectionsAreClosed() throws {
        var limits = HTTPLimits()
        limits.idleTimeout = 0.3
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.get("/health").status == 200)
        #expect(client.isClosedByServer())
    }

    @Test func slowRequestsGet408() throws {
        var limits = HTTPLimits()
        limits.requestTimeout = 0.3
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET /health HTTP/1.1\r\nHost: x\r\n")
        #expect(try client.read().status == 408)
        #expect(client.isClosedByServer())
        #expect(try server.metric("heatmap_timeouts_total") == 1)
    }

    @Test func connectionsBeyondTheCapGet503() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 4
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let held = try (0..<4).map { _ in try server.client() }
        for client in held { #expect(try client.get("/health").status == 200) }
        let extra = try server.client()
        #expect(try extra.read().status == 503)
        #expect(extra.isClosedByServer())
        #expect(try held[0].get("/health").status == 200)
    }

    @Test func shutdownFinishesAndStopsListening() throws {
        let server = try TestServer()
        let client = try server.client()
        #expect(try client.get("/health").status == 200)
        server.stop()
        #expect(client.isClosedByServer())
        #expect(throws: (any Error).self) { try TestClient(port: server.port) }
    }

    @Test func aClientThatClosesEarlyDoesNotDisturbOthers() throws {
        let server = try TestServer()
        defer { server.stop() }
        for zoom in 8...10 {
            let quitter = try server.client()
            try quitter.send(
                "GET /police/\(zoom)/\(231 << (zoom - 8))/\(157 << (zoom - 8)).png HTTP/1.1\r\nHost: x\r\n\r\n")
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(quitter.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        #expect(try server.client().get("/police/6/57/39.png").status == 200)
    }
}
