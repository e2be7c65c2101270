import Foundation
import HeatmapKit
import HeatmapServer
import Testing

/// A real server on loopback asked for tiles with extreme numbers in every query parameter and
/// in the path: each request is answered 200, 204 or 400 (404 for paths that name nothing),
/// and the server still answers a known tile with the same bytes after each.
@Suite struct RequestExtremesTests {
    static let numbers = [
        "4e-45", "1e-15", "1e-20", "1e-300", "1e-400", "4.9e-324", "2.2250738585072014e-308", "0x1p-1074", "0x1p1023",
        "1e38", "3.4028235e38", "1e308", "1.7976931348623157e308", "1e309", "0", "-0", "%2D0", "-1", "-1e-45", "nan",
        "NaN", "-nan", "inf", "-inf", "infinity", "%2Binf", "+1", "0.5", ".5", "5.", "1e", "e1", "0x", "0x10", "1_0",
        String(repeating: "9", count: 400), "0." + String(repeating: "0", count: 400) + "1",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "10", "50", "51", "%00", "1%00",
        "%F0%9F%94%A5", "",
    ]

    /// Answers one request on `client`, reconnecting if the server closed the connection.
    static func answer(_ path: String, _ client: inout TestClient, server: TestServer) throws -> TestClient.Response {
        do {
            return try client.get(path)
        } catch {
            client = try server.client(timeout: 10)
            return try client.get(path)
        }
    }

    static func expectAlive(_ server: TestServer, known: [UInt8], after what: String) throws {
        let check = try server.client(timeout: 10)
        #expect(try check.get("/health").status == 200, "after \(what)")
        #expect(try check.get("/police/6/57/39.png").body == known, "after \(what)")
    }

    @Test("the issue's reproducer: max=4e-45 is a tile, and the server lives on")
    func reproducer() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let known = try client.get("/police/6/57/39.png").body
        for maximum in ["4e-45", "1e-300", "1e-20", "1e-15"] {
            let response = try client.get("/police/6/57/39.png?max=\(maximum)")
            #expect(response.status == 200 && pngWidth(response.body) == 256, "max=\(maximum)")
        }
        try Self.expectAlive(server, known: known, after: "tiny max")
    }

    @Test("max, radius, opacity and gradient stops with extreme numbers: 200, 204 or 400, and alive after each")
    func queryParameters() throws {
        let server = try TestServer()
        defer { server.stop() }
        var client = try server.client()
        let known = try client.get("/police/6/57/39.png").body
        for parameter in ["max", "radius", "opacity", "gradient-stop", "gradient-colour"] {
            for number in Self.numbers {
                let query: String
                switch parameter {
                case "gradient-stop": query = "gradient=0000ff:\(number),ff0000:1"
                case "gradient-colour": query = "gradient=\(number):0.5"
                default: query = "\(parameter)=\(number)"
                }
                // A tile with data, the world at 512 px, and an empty one at the deepest zoom.
                for tile in ["6/57/39", "0/0/0@2x", "22/0/0@3x"] {
                    let response = try Self.answer("/police/\(tile).png?\(query)", &client, server: server)
                    #expect([200, 204, 400].contains(response.status), "\(tile)?\(query): \(response.status)")
                    if response.status == 400 { #expect(!response.text.isEmpty) }
                }
            }
            try Self.expectAlive(server, known: known, after: parameter)
        }
    }

    @Test("huge, negative and odd numbers in tile paths: 400 or 404, never a trap")
    func tilePaths() throws {
        let server = try TestServer()
        defer { server.stop() }
        var client = try server.client()
        let known = try client.get("/police/6/57/39.png").body
        let parts = [
            String(repeating: "9", count: 30), "99999999", "100000000", "-1", "-0", "0x10", "1e3", "4194304", "4194303",
            "22", "23", "+1", "%31", "", " 1",
        ]
        for z in parts {
            for xy in parts {
                for suffix in ["", "@2x", "@3x", "@9x", "@0x", "@-1x", "@99999999999999999999x"] {
                    for path in ["/police/\(z)/\(xy)/\(xy)\(suffix).png", "/police/\(z)/0/\(xy)\(suffix).png"] {
                        let response = try Self.answer(path, &client, server: server)
                        #expect([200, 204, 400, 404].contains(response.status), "\(path): \(response.status)")
                    }
                }
            }
        }
        try Self.expectAlive(server, known: known, after: "tile paths")
    }

    @Test("many distinct empty tiles keep the cache's own byte count within --cache-mb")
    func emptyTilesStayWithinTheCache() throws {
        var options = ServerOptions()
        options.cacheBytes = 256 << 10
        let server = try TestServer(options: options)
        defer { server.stop() }
        let client = try server.client()
        for i in 0..<3000 {
            // Zoom 12 over the Pacific: nothing within reach, 204 each, every one a new key.
            let response = try client.get("/police/12/\(i)/\(1000 + i % 7).png?opacity=0.\(i % 10)")
            #expect(response.status == 204)
        }
        let bytes = try #require(try server.metric("heatmap_tile_cache_bytes"))
        let entries = try #require(try server.metric("heatmap_tile_cache_entries"))
        #expect(bytes <= Double(256 << 10) && bytes > Double(128 << 10))
        #expect(entries > 100 && entries < 3000)
    }

    @Test(
        "heatmap serve refuses cache sizes, limits and settings it cannot hold, with a message, before serving",
        arguments: [
            ["--cache-mb", "1e30"], ["--cache-mb", "9223372036854775807"], ["--cache-mb", "-1"],
            ["--cache-mb", "16777217"], ["--max-connections", "0"], ["--max-connections", "-5"], ["--port", "65536"],
            ["--port", "-1"], ["--radius", "9223372036854775807"], ["--max-intensity", "1e-400"],
            ["--opacity", "nan"], ["--max-intensity", "-0"],
        ])
    func serveFlags(flags: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let process = Process()
        process.executableURL = ServeCommandTests.executable
        let port = flags.contains("--port") ? [] : ["--port", "0"]
        process.arguments = ["serve", try TestServer.fixturePath()] + port + flags
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Bounded: a server that started after all is stopped, and the test fails.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && [1, 64].contains(process.terminationStatus), "\(flags): \(text)")
        #expect(text.hasPrefix("heatmap: "), "\(flags): \(text)")
    }
}

/// Library-set limits at the ends of `Int`, and zoom ranges the service cannot offer.
@Suite struct LimitExtremesTests {
    @Test("limits of Int.max (no limit) parse requests; of 0, refuse them; never an overflow")
    func parserLimits() throws {
        let head = Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        for value in [Int.max, Int.max - 1, 0, -1, Int.min] {
            var limits = HTTPLimits()
            limits.maxRequestLine = value
            limits.maxHeaderBytes = value
            limits.maxHeaderCount = value
            var parser = HTTPParser(limits: limits)
            do {
                let parsed = try parser.parse(ArraySlice(head))
                #expect(value > 100 && parsed?.request.path == "/health", "limit \(value)")
            } catch {
                #expect(value <= 100, "limit \(value): \(error)")
            }
            var partial = HTTPParser(limits: limits)
            _ = try? partial.parse(ArraySlice(head.prefix(20)))
        }
    }

    @Test("a service offering zooms outside 0...22, or lowest above highest, is refused")
    func zoomRanges() throws {
        let path = try TestServer.fixturePath()
        let layer = try ServedLayer(name: "police", data: try LayerData.load(path: path))
        for (low, high) in [(-1, 22), (0, 23), (10, 9), (Int.min, Int.max), (0, Int.max)] {
            var options = ServerOptions()
            options.minZoom = low
            options.maxZoom = high
            #expect(throws: OverrideError.self) { try TileService(layers: [layer], options: options) }
        }
        var options = ServerOptions()
        options.minZoom = 5
        options.maxZoom = 5
        #expect(throws: Never.self) { try TileService(layers: [layer], options: options) }
    }
}
