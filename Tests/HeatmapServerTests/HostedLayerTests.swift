import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Synchronization
import Testing

/// Google's `TestTileLayer`: an image on every odd column, nothing elsewhere.
private struct TestTileLayer: SyncTileLayer {
    let australia: [UInt8]
    func tileFor(_ tile: TileRequest) -> TileResult { tile.x % 2 == 1 ? .image(australia) : .noTile }
}

/// The same answered later; zoom 5 is never available.
private struct LaterTileLayer: AsyncTileLayer {
    let australia: [UInt8]
    func tile(_ tile: TileRequest) async -> TileResult {
        await Task.yield()
        if tile.zoom == 5 { return .notAvailableYet }
        return tile.y % 2 == 0 ? .image(australia) : .noTile
    }
}

@Suite("Hosted layers: URL layers, stacks, static images and your own layers through the server")
struct HostedLayerTests {
    /// A server of the police heatmap and `hosted`, on a free loopback port, for `body`.
    static func serve(
        _ hosted: [HostedLayer], stacks: [StackDefinition] = [],
        _ body: (TestClient, LayerData, Int) throws -> Void
    ) throws {
        let path = try TestServer.fixturePath()
        let data = try TestServer.load(path)
        let live = try ServedLayer(name: "police", source: path, data: data)
        let stats = ServerStats()
        let service = try TileService(layers: [live], hosted: hosted, stacks: stacks, stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: service, stats: stats)
        server.start()
        defer {
            server.shutdown(grace: 2)
            server.waitUntilStopped()
        }
        try body(try TestClient(port: server.port, timeout: 20), data, server.port)
    }

    static func url(_ upstream: Upstream, _ mode: String, timeout: Double = 5) throws -> HostedLayer {
        try HostedLayer(
            name: mode == "500" ? "error" : mode,
            layer: URLTileLayer(template: upstream.template(mode), name: mode, timeout: timeout))
    }

    @Test("an upstream that is slow, answers garbage or 500 or closes: 503 with Retry-After, the server answers on")
    func failingUpstreams() throws {
        let upstream = try Upstream(slowDelay: 2)
        defer { upstream.stop() }
        let layers = try ["slow", "garbage", "500", "close", "hang"].map { try Self.url(upstream, $0, timeout: 0.5) }
        try Self.serve(layers + [try Self.url(upstream, "png")]) { client, _, _ in
            for name in ["slow", "garbage", "error", "close", "hang"] {
                let response = try client.get("/\(name)/3/7/4.png")
                #expect(response.status == 503, "\(name)")
                #expect(response.header("Retry-After") == "2", "\(name)")
                #expect(try client.get("/health").status == 200)
                #expect(try client.get("/police/3/7/4.png").status == 200)
            }
            let tile = try client.get("/png/3/7/4.png")
            #expect(tile.status == 200)
            #expect(tile.body == upstream.png)
            #expect(tile.header("ETag") != nil)
            let again = try client.get("/png/3/7/4.png", headers: ["If-None-Match": tile.header("ETag") ?? ""])
            #expect(again.status == 304)
            #expect(try client.get("/metrics").text.contains("status=\"503\""))
        }
    }

    @Test("many requests for a slow upstream: at most six in flight upstream, every one answered")
    func boundedInFlight() throws {
        let upstream = try Upstream(slowDelay: 0.2)
        defer { upstream.stop() }
        try Self.serve([try Self.url(upstream, "slow", timeout: 10)]) { _, _, port in
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { i in
                let status = (try? TestClient(port: port, timeout: 20).get("/slow/4/\(i)/5.png").status) ?? 0
                statuses.withLock { $0.append(status) }
            }
            #expect(statuses.withLock { $0 }.sorted() == Array(repeating: 200, count: 16))
            let counts = upstream.snapshot
            #expect(counts.total == 16)
            #expect((1...6).contains(counts.maximumInFlight))
        }
    }

    @Test("/base+police/ and a named stack equal the library's TileStack, byte for byte; unknown members 404")
    func stacks() throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let base = try Self.url(upstream, "png")
        try Self.serve([base], stacks: [StackDefinition(name: "map", layers: ["png", "police"])]) { client, data, _ in
            let library = TileStack([
                try URLTileLayer(template: upstream.template("png")),
                HeatmapTileLayer(index: data.index, cacheBytes: 0),
            ])
            for request in [TileRequest(x: 7, y: 4, zoom: 3), TileRequest(x: 57, y: 39, zoom: 6, scale: 2)] {
                let suffix = request.scale == 2 ? "@2x" : ""
                let path = "/\(request.zoom)/\(request.x)/\(request.y)\(suffix).png"
                let expected = try library.tileFor(request).png
                #expect(expected != nil)
                let adHoc = try client.get("/png+police" + path)
                #expect(adHoc.status == 200)
                #expect(adHoc.body == expected)
                #expect(try client.get("/map" + path).body == expected)
                #expect(try client.get("/police+png" + path).body != expected)
            }
            #expect(try client.get("/png+nope/3/7/4.png").status == 404)
            #expect(try client.get("/nope+police/3/7/4.png").text.contains("nope"))
            #expect(try client.get("/map.json").status == 200)
        }
    }

    @Test("a static image through the server equals the library's static image; 400 beyond the limit; 503 not yet")
    func staticImages() throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let layers = [try Self.url(upstream, "png"), try Self.url(upstream, "500", timeout: 0.5)]
        try Self.serve(layers, stacks: [StackDefinition(name: "map", layers: ["png", "police"])]) { client, data, _ in
            let library = TileStack([
                try URLTileLayer(template: upstream.template("png")),
                HeatmapTileLayer(index: data.index, cacheBytes: 0),
            ])
            for (scale, suffix) in [(1, ""), (2, "@2x")] {
                let viewport = Viewport(
                    center: Coordinate(latitude: -25.5, longitude: 134.25), zoom: 3, width: 300, height: 200,
                    scale: scale)
                let image = try #require(try library.imageFor(viewport))
                let expected = try PNGEncoder().encode(image)
                for name in ["map", "png+police"] {
                    let response = try client.get("/static/\(name)/134.25,-25.5,3/300x200\(suffix).png")
                    #expect(response.status == 200)
                    #expect(response.body == expected)
                }
            }
            let limit = TileService.maximumStaticPoints
            #expect(try client.get("/static/map/0,0,1/\(limit + 1)x10.png").status == 400)
            #expect(try client.get("/static/map/0,0,1/\(limit)x1.png").status == 200)
            #expect(try client.get("/static/map/east,0,1/10x10.png").status == 400)
            #expect(try client.get("/static/map/0,0,23/10x10.png").status == 400)
            #expect(try client.get("/static/nope/0,0,1/10x10.png").status == 404)
            let waiting = try client.get("/static/error+police/134,-25,3/100x100.png")
            #expect(waiting.status == 503)
            #expect(waiting.header("Retry-After") == "2")
        }
    }

    @Test("your own sync and async layers, as Google's TestTileLayer, through the server")
    func customLayers() throws {
        let australia = try Upstream.solidPNG(side: 256, red: 0, green: 128, blue: 0, alpha: 255)
        let layers = [
            try HostedLayer(name: "sync", layer: TestTileLayer(australia: australia)),
            try HostedLayer(name: "async", layer: LaterTileLayer(australia: australia)),
        ]
        try Self.serve(layers) { client, _, _ in
            let odd = try client.get("/sync/2/1/0.png")
            #expect(odd.status == 200)
            #expect(odd.body == australia)
            #expect(try client.get("/sync/2/2/0.png").status == 204)
            let even = try client.get("/async/2/1/2.png")
            #expect(even.status == 200)
            #expect(even.body == australia)
            #expect(try client.get("/async/2/1/1.png").status == 204)
            #expect(try client.get("/async/5/1/1.png").status == 503)
            #expect(try client.get("/sync/2/4/0.png").status == 400)
            #expect(try client.get("/sync+async/2/1/2.png").body == australia)
            #expect(try client.get("/sync+async/2/0/1.png").status == 204)
            #expect(try client.get("/catalog").text.contains("\"name\":\"async\""))
        }
    }

    @Test("a stack naming an unknown layer, or a name used twice, is refused")
    func invalidStacks() throws {
        let data = try LayerData(points: [WeightedLatLng(coordinate: Coordinate(latitude: 1, longitude: 2))])
        let live = try ServedLayer(name: "one", data: data)
        #expect(throws: OverrideError.self) {
            try TileService(layers: [live], stacks: [StackDefinition(name: "map", layers: ["one", "two"])])
        }
        #expect(throws: OverrideError.self) {
            try TileService(layers: [live], stacks: [StackDefinition(name: "one", layers: ["one"])])
        }
        #expect(throws: Never.self) {
            try TileService(layers: [live], stacks: [StackDefinition(name: "map", layers: ["one", "one"])])
        }
    }

    @Test("config files take URL layers, stacks and upstreamTimeout; a layer needs a file or a url")
    func configuration() throws {
        let folder = try TemporaryFolder("hosted")
        defer { folder.remove() }
        let good = folder.file("good.json")
        try Data(
            """
            {"layers": [{"name": "osm", "url": "https://tile.example.org/{z}/{x}/{y}.png"}, {"file": "p.json"}],
             "stacks": [{"name": "map", "layers": ["osm", "p"]}], "upstreamTimeout": 3}
            """.utf8
        ).write(to: URL(fileURLWithPath: good))
        let config = try ServeConfiguration.load(path: good)
        #expect(config.layers?.first?.url == "https://tile.example.org/{z}/{x}/{y}.png")
        #expect(config.layers?.last?.file == folder.file("p.json"))
        #expect(config.stacks == [StackDefinition(name: "map", layers: ["osm", "p"])])
        #expect(config.upstreamTimeout == 3)
        let bad = folder.file("bad.json")
        try Data(#"{"layers": [{"name": "x"}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        #expect(throws: OverrideError.self) { try ServeConfiguration.load(path: bad) }
    }

    @Test("the own-layer example of docs/guides/layers-and-stacks.md: TestTileLayer beside the heatmap, in a stack")
    func guideExample() throws {
        let png = try Upstream.solidPNG(side: 256, red: 0, green: 128, blue: 0, alpha: 255)
        let service = try TileService(
            layers: [try ServedLayer(name: "police", data: try LayerData.load(path: try TestServer.fixturePath()))],
            hosted: [try HostedLayer(name: "odd", layer: TestTileLayer(australia: png))],
            stacks: [StackDefinition(name: "map", layers: ["odd", "police"])])
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: service)
        server.start()
        defer {
            server.shutdown(grace: 2)
            server.waitUntilStopped()
        }
        let client = try TestClient(port: server.port)
        #expect(try client.get("/odd/3/7/4.png").body == png)
        #expect(try client.get("/map/3/7/4.png").status == 200)
        #expect(try client.get("/odd+police/3/7/4.png").status == 200)
        #expect(try client.get("/static/map/134,-25,3/64x64.png").status == 200)
    }
}
