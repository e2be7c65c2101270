import Dispatch
import Foundation
import HeatmapKit
import HeatmapServer
import Synchronization
import Testing

/// `POST`/`DELETE /{layer}/points` drop only the cached tiles the change reaches, a zoom whose
/// M(z) moved gets new tiles, and no answer mixes the states before and after a change.
@Suite struct LiveInvalidationTests {
    /// The tiles of zoom 3 in the rows of the data and the change (y 1...4) in four variants (scale 2, another radius, a radius in metres at a
    /// given latitude), and the tiles of zoom 5 around the first cluster.
    static let paths: [String] = {
        var paths: [String] = []
        for variant in ["", "@2x", "?radius=50", "?radius-meters=300000&radius-latitude=20"] {
            for y in 1...4 {
                for x in 0..<8 {
                    paths.append(
                        variant.hasPrefix("@") ? "/live/3/\(x)/\(y)\(variant).png" : "/live/3/\(x)/\(y).png\(variant)")
                }
            }
        }
        for y in 13...17 { for x in 15...18 { paths.append("/live/5/\(x)/\(y).png") } }
        return paths
    }()

    static func answers(_ server: LiveServer) throws -> [String: TestClient.Response] {
        let client = try server.client()
        var answers: [String: TestClient.Response] = [:]
        for path in paths { answers[path] = try client.get(path) }
        return answers
    }

    static let lone = WeightedLatLng(coordinate: Coordinate(latitude: 50, longitude: -150), intensity: 1)

    @Test("a light point far away: only the tiles it reaches are drawn again; every tile equals a fresh server's")
    func onlyReached() throws {
        let points = clusteredPoints()
        let server = try LiveServer(points)
        defer { server.stop() }
        let before = try Self.answers(server)
        let renders = try server.metric("heatmap_tile_render_seconds_count")
        let answer = try server.change([Self.lone])
        #expect(answer.status == 200)
        let dropped = try #require(LiveServer.number("tilesDropped", in: answer.text))
        // Reached: a tile or its neighbours at zoom 3 in each variant, none at zoom 5 (far away).
        #expect(dropped >= 4 && dropped <= 4 * 9)
        let after = try Self.answers(server)
        // Drawn again: the tiles dropped, no other (those kept are answered from the cache).
        #expect(try server.metric("heatmap_tile_render_seconds_count") - renders == Double(dropped))
        let fresh = try LiveServer(points + [Self.lone])
        defer { fresh.stop() }
        let expected = try Self.answers(fresh)
        var changed = 0
        for path in Self.paths {
            let (old, new, want) = (try #require(before[path]), try #require(after[path]), try #require(expected[path]))
            #expect(new.status == want.status && new.body == want.body, "\(path)")
            #expect(new.header("ETag") == want.header("ETag"), "\(path)")
            if old.header("ETag") != new.header("ETag") { changed += 1 }
            // Far from the point (x 2...7 or y 4...7 at zoom 3): the same bytes.
            if path.hasPrefix("/live/5/")
                || path.split(separator: "/").dropFirst(2).first.flatMap({ Int($0) }).map({ $0 >= 2 && $0 <= 6 })
                    == true
            {
                #expect(old.header("ETag") == new.header("ETag"), "\(path)")
            }
        }
        #expect(changed >= 1 && changed <= dropped)
    }

    @Test("a heavy point raises M(z): every image of the zoom is drawn again, as a fresh server draws it")
    func normalizationMoved() throws {
        let points = clusteredPoints()
        let server = try LiveServer(points)
        defer { server.stop() }
        let before = try Self.answers(server)
        var heavy = Self.lone
        heavy.intensity = 100_000
        let renders = try server.metric("heatmap_tile_render_seconds_count")
        let answer = try server.change([heavy])
        #expect(answer.status == 200)
        let after = try Self.answers(server)
        let drawn = try server.metric("heatmap_tile_render_seconds_count") - renders
        let fresh = try LiveServer(points + [heavy])
        defer { fresh.stop() }
        let expected = try Self.answers(fresh)
        var images = 0
        for path in Self.paths {
            let (old, new, want) = (try #require(before[path]), try #require(after[path]), try #require(expected[path]))
            #expect(new.status == want.status && new.body == want.body, "\(path)")
            if old.status == 200 { images += 1 }
        }
        // Every image drawn again (M(z) moved at each zoom and variant), however far.
        #expect(images >= 10 && drawn >= Double(images))
        // Removed again: M(z) falls back, and the tiles are the first ones, byte for byte.
        #expect(try server.change([heavy], method: "DELETE").status == 200)
        let restored = try Self.answers(server)
        for path in Self.paths {
            #expect(restored[path]?.body == before[path]?.body && restored[path]?.status == before[path]?.status)
        }
    }

    @Test("requests during changes answer the state before or after, never a mix or a stale tile later")
    func concurrentChanges() throws {
        let points = clusteredPoints()
        var heavy = Self.lone
        heavy.intensity = 50_000
        heavy.coordinate = Coordinate(latitude: 12, longitude: 12)  // in the cluster: reaches its tiles
        let tiles =
            (0..<8).flatMap { y in (0..<8).map { x in "/live/3/\(x)/\(y).png" } } + [
                "/live/5/16/15.png", "/live/5/17/15.png", "/live/5/16/14.png",
            ]
        func states(_ points: [WeightedLatLng]) throws -> [String: [UInt8]] {
            let server = try LiveServer(points)
            defer { server.stop() }
            let client = try server.client()
            var bodies: [String: [UInt8]] = [:]
            for tile in tiles { bodies[tile] = try client.get(tile).body }
            return bodies
        }
        let (plain, withHeavy) = (try states(points), try states(points + [heavy]))
        let server = try LiveServer(points)
        defer { server.stop() }
        let stop = Atomic<Bool>(false)
        let faults = Mutex<[String]>([])
        let answered = Atomic<Int>(0)
        let group = DispatchGroup()
        for worker in 0..<3 {
            DispatchQueue.global().async(group: group) {
                do {
                    let client = try server.client()
                    var n = worker
                    while !stop.load(ordering: .relaxed) {
                        let tile = tiles[n % tiles.count]
                        n += 1
                        let body = try client.get(tile).body
                        answered.add(1, ordering: .relaxed)
                        if body != plain[tile] && body != withHeavy[tile] {
                            faults.withLock { $0.append(tile) }
                        }
                    }
                } catch {
                    faults.withLock { $0.append("\(error)") }
                }
            }
        }
        for round in 0..<12 {
            let answer = try server.change([heavy], method: round % 2 == 0 ? "POST" : "DELETE")
            #expect(answer.status == 200)
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop.store(true, ordering: .relaxed)
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(faults.withLock { $0 }.isEmpty)
        #expect(answered.load(ordering: .relaxed) > 12)
        // Back to the first state: every tile is its bytes (nothing stale was cached).
        let client = try server.client()
        for tile in tiles { #expect(try client.get(tile).body == plain[tile], "\(tile)") }
    }
}
