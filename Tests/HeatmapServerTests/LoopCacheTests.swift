import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapServer

/// The event loops' own copies of cached tile answers (``LoopResponseCache``): kept only for a
/// heatmap's tiles found in the shared cache, dropped by every change of the layer's data, and
/// bounded; answers from them are the shared path's, byte for byte but the date.
@Suite struct LoopCacheTests {
    static let path = "/live/3/4/3.png"

    /// Asks for a tile until the shared cache has it; the reply and stamp of the next request.
    static func stamped(_ service: TileService, _ target: String) -> (HTTPReply, ReuseStamp?) {
        var stamp: ReuseStamp?
        let reply = service.respond(to: HTTPRequest(method: "GET", target: target), reuse: &stamp)
        if case .deferred(let start) = reply {
            let done = DispatchSemaphore(value: 0)
            start { _ in done.signal() }
            _ = done.wait(timeout: .now() + 20)
            stamp = nil
            return (service.respond(to: HTTPRequest(method: "GET", target: target), reuse: &stamp), stamp)
        }
        return (reply, stamp)
    }

    @Test("a cached tile is stamped, a render, a document or an error is not; a change makes the stamp stale")
    func stampsAndTheirChanges() throws {
        let server = try LiveServer(clusteredPoints())
        defer { server.stop() }
        let service = server.service
        var none: ReuseStamp?
        guard case .deferred = service.respond(to: HTTPRequest(method: "GET", target: Self.path), reuse: &none) else {
            Issue.record("the first request of a tile renders it")
            return
        }
        #expect(none == nil)
        let (reply, stamp) = Self.stamped(service, Self.path)
        guard case .response(let response) = reply else {
            Issue.record("the second request of a tile is answered from the shared cache")
            return
        }
        #expect(response.status == .ok)
        let kept = try #require(stamp)
        #expect(kept.isCurrent)
        for target in ["/live.json", "/health", "/live/99/0/0.png", "/live/3/4/3.png?radius=7", "/nope/3/4/3.png"] {
            var other: ReuseStamp?
            _ = service.respond(to: HTTPRequest(method: "GET", target: target), reuse: &other)
            #expect(other == nil, "\(target)")
        }
        // Points far away: the tile stays in the shared cache, yet the loops' copies are stale.
        #expect(try server.change([LiveInvalidationTests.lone]).status == 200)
        #expect(!kept.isCurrent)
        let (_, again) = Self.stamped(service, Self.path)
        let renewed = try #require(again)
        #expect(renewed.isCurrent)
        // A reload too (a changed file, SIGHUP, a table's new version).
        server.layer.replace(with: server.layer.current.data)
        #expect(!renewed.isCurrent)
    }

    @Test("a table's partial change (the PostgreSQL path) makes the stamps stale, even one that reaches no tile")
    func partialChangesMakeStampsStale() throws {
        let index = try PointIndex(points: clusteredPoints())
        let layer = try ServedLayer(name: "table", data: LayerData(source: index, count: 500, bounds: nil))
        let service = try TileService(layers: [layer])
        let (reply, stamp) = Self.stamped(service, "/table/3/4/3.png")
        guard case .response(let response) = reply, response.status == .ok else {
            Issue.record("the tile is answered from the shared cache")
            return
        }
        let kept = try #require(stamp)
        let update = PartialUpdate(maxima: layer.knownMaxima) { _, _, _, _ in false }
        #expect(layer.replace(with: LayerData(source: index, count: 500, bounds: nil), update: update) == 0)
        #expect(!kept.isCurrent)
    }

    @Test("kept answers are found by target, dropped when stale, bounded in entries and bytes")
    func boundsAndStaleness() {
        let version = ResponseVersion()
        let counted = Counter()
        let stamp = ReuseStamp(version: version, stamp: version.value) { counted.add() }
        let cache = LoopResponseCache(capacityBytes: 1000, entries: 8)
        let response = HTTPResponse(
            status: .ok, headers: HTTPHeaders([("ETag", "\"1-2\"")]), body: [UInt8](repeating: 7, count: 100))
        cache.insert(response, stamp: stamp, for: "/a")
        #expect(cache.lookup("/a")?.response == response)
        #expect(cache.lookup("/b") == nil)
        let head = String(decoding: cache.lookup("/a")?.head ?? [], as: UTF8.self)
        #expect(head == "HTTP/1.1 200 OK\r\nServer: HeatmapKit\r\nETag: \"1-2\"\r\nContent-Length: 100\r\n")
        cache.lookup("/a")?.stamp.reused()
        #expect(counted.value == 1)
        for i in 0..<100 { cache.insert(response, stamp: stamp, for: "/\(i)") }
        #expect(cache.count <= 10)  // at most 5 bodies of 100 bytes a generation
        #expect(cache.lookup("/99") != nil && cache.lookup("/0") == nil)
        cache.insert(HTTPResponse(status: .ok, body: [UInt8](repeating: 0, count: 600)), stamp: stamp, for: "/big")
        #expect(cache.lookup("/big") == nil)  // over a generation's bytes
        version.advance()
        #expect(cache.lookup("/99") == nil)
        #expect(LoopResponseCache(capacityBytes: 0).bytesPerGeneration == 0)
        var request = HTTPRequest(method: "GET", target: "/a")
        #expect(LoopResponseCache.accepts(request))
        request.headers.add("If-None-Match", "\"1-2\"")
        #expect(!LoopResponseCache.accepts(request))
        #expect(!LoopResponseCache.accepts(HTTPRequest(method: "POST", target: "/a")))
    }

    @Test("on the wire: answers asked for again on one connection follow every change, as a fresh server's")
    func changesReachTheLoops() throws {
        let points = clusteredPoints()
        let server = try LiveServer(points)
        defer { server.stop() }
        let paths = LiveInvalidationTests.paths
        let client = try server.client()
        var first: [String: TestClient.Response] = [:]
        for _ in 0..<3 { for path in paths { first[path] = try client.get(path) } }
        let hits = try server.metric("heatmap_tile_cache_hits_total")
        for path in paths { #expect(try client.get(path).body == first[path]?.body, "\(path)") }
        // Every answer from a copy is still counted as a cache hit.
        #expect(try server.metric("heatmap_tile_cache_hits_total") - hits == Double(paths.count))
        let head = try client.get(Self.path, method: "HEAD")
        #expect(
            head.status == 200 && head.body.isEmpty
                && head.header("Content-Length") == first[Self.path]?.header("Content-Length"))
        let etag = try #require(first[Self.path]?.header("ETag"))
        #expect(try client.get(Self.path, headers: ["If-None-Match": etag]).status == 304)
        var heavy = LiveInvalidationTests.lone
        heavy.intensity = 100_000
        // A light point far away (few tiles dropped), a heavy one (M(z) moves), the heavy one removed.
        let lone = LiveInvalidationTests.lone
        for (change, method, state) in [
            (lone, "POST", points + [lone]), (heavy, "POST", points + [lone, heavy]),
            (heavy, "DELETE", points + [lone]),
        ] {
            #expect(try server.change([change], method: method).status == 200)
            var now: [String: TestClient.Response] = [:]
            for _ in 0..<2 { for path in paths { now[path] = try client.get(path) } }
            let expected = try LiveServer(state)
            defer { expected.stop() }
            let fresh = try expected.client()
            for path in paths {
                let want = try fresh.get(path)
                #expect(now[path]?.status == want.status && now[path]?.body == want.body, "\(method) \(path)")
            }
        }
    }
}

/// A count shared with a `@Sendable` closure.
private final class Counter: Sendable {
    private let count = Mutex<Int>(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
