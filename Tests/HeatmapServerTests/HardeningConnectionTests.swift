import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap serve` as its own process under many connections and few descriptors: idle
/// keep-alive connections held with bounded memory while others get tiles, 503 beyond the cap,
/// and the descriptor limit reached without spinning. Loopback only, bounded in time and count.
@Suite(.serialized) struct HardeningConnectionTests {
    static let tiles = [
        "/police_stations/6/57/39.png", "/police_stations/7/115/78.png", "/police_stations/8/231/157.png",
    ]

    /// A value of the server's /metrics.
    static func metric(_ name: String, _ client: TestClient) throws -> Double? {
        for line in try client.get("/metrics").text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    /// Waits (at most `tries` × 50 ms) until `condition` holds.
    static func eventually(tries: Int = 200, _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<tries {
            if try condition() { return true }
            usleep(50_000)
        }
        return false
    }

    @Test(
        "10,000 idle keep-alive connections: bounded memory, tiles for others, 503 beyond the cap",
        .enabled(if: hasProcFileSystem, "reads the server's resident memory from /proc (Linux)"))
    func tenThousandIdleConnections() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let count = 10_000
        var limit = rlimit()
        getrlimit(TestSocket.descriptorLimit, &limit)
        // The test holds every client end; the server raises its own soft limit to the hard one.
        limit.rlim_cur = limit.rlim_max
        setrlimit(TestSocket.descriptorLimit, &limit)
        try #require(limit.rlim_cur >= rlim_t(count + 500), "RLIMIT_NOFILE's hard limit \(limit.rlim_max) is too low")
        let server = try ServeProcess([
            "--max-connections", "\(count + 1)", "--idle-timeout", "600", "--cache-mb", "16", "--no-watch",
        ])
        defer { server.stop() }
        let active = try server.client()
        for tile in Self.tiles { #expect(try active.get(tile).status == 200) }
        var idle: [TestClient] = []
        idle.reserveCapacity(count)
        // A first hundred, so the baseline includes the loop's tables and first allocations.
        for _ in 0..<100 {
            let client = try server.client()
            #expect(try client.get("/health").status == 200)
            idle.append(client)
        }
        usleep(200_000)
        let before = try #require(server.residentBytes())
        // Connect them all, then ask on each, then read each: the server takes them in batches.
        while idle.count < count { idle.append(try server.client()) }
        for client in idle.dropFirst(100) { try client.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        var answered = 0
        for client in idle.dropFirst(100) where try client.read().status == 200 { answered += 1 }
        #expect(answered == count - 100)
        #expect(try Self.eventually { try Self.metric("heatmap_connections_open", active) == Double(count + 1) })
        usleep(200_000)
        let after = try #require(server.residentBytes())
        let perConnection = (after - before) / (count - 100)
        print(
            "hardening: \(count) idle keep-alive connections, server RSS \(before >> 10) KiB -> \(after >> 10) KiB, "
                + "\(perConnection) bytes per connection; RLIMIT_NOFILE \(limit.rlim_max)")
        #expect(perConnection < 16 << 10, "\(perConnection) bytes a connection")
        // Others keep getting tiles, idle connections stay usable.
        for tile in Self.tiles + ["/police_stations/9/462/314@2x.png", "/police_stations.json"] {
            #expect([200, 204].contains(try active.get(tile).status), "\(tile)")
        }
        for i in stride(from: 0, to: count, by: 499) { #expect(try idle[i].get("/health").status == 200) }
        // Beyond the cap: 503 and closed, nothing worse; the server answers on.
        for _ in 0..<20 {
            let extra = try server.client(timeout: 5)
            let refused = try extra.read()
            #expect(refused.status == 503 && refused.text.contains("too many connections"))
            #expect(extra.isClosedByServer())
        }
        #expect(try Self.metric("heatmap_connections_rejected_total", active) == 20)
        #expect(try active.get(Self.tiles[0]).status == 200)
        idle.removeAll()
        #expect(try Self.eventually { try Self.metric("heatmap_connections_open", active) == 1 })
        #expect(server.stop() == 0)
    }

    @Test(
        "the descriptor limit reached: the server survives, backs off without spinning, serves again",
        .enabled(if: hasProcFileSystem, "reads the server's descriptors and CPU time from /proc (Linux)"))
    func descriptorLimitReached() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let limit = 64
        let server = try ServeProcess(["--no-watch", "--cache-mb", "16"], descriptorLimit: limit)
        defer { server.stop() }
        let known = try server.client()
        let tile = try known.get(Self.tiles[0])
        #expect(tile.status == 200)
        // More clients than descriptors: the kernel completes their connections into the backlog.
        var crowd: [TestClient] = []
        for _ in 0..<(3 * limit) { crowd.append(try server.client(timeout: 5)) }
        #expect(Self.eventually { server.openDescriptors() >= limit - 1 }, "descriptors: \(server.openDescriptors())")
        // accept fails with EMFILE now; a loop that retried at once would burn a core.
        let start = try #require(server.cpuSeconds())
        sleep(3)
        let spent = try #require(server.cpuSeconds()) - start
        print("hardening: RLIMIT_NOFILE \(limit), \(crowd.count) clients waiting: \(spent) s of CPU in 3 s")
        #expect(spent < 0.75, "the server used \(spent) s of CPU in 3 s while out of descriptors")
        // Connections already open are served throughout.
        #expect(try known.get(Self.tiles[1]).status == 200)
        #expect(try known.get(Self.tiles[0]).body == tile.body)
        // Clients leave; new ones are served again.
        crowd.removeAll()
        var served = false
        for _ in 0..<100 where !served {
            if let client = try? server.client(timeout: 2), let response = try? client.get(Self.tiles[0]) {
                served = response.status == 200 && response.body == tile.body
            }
            if !served { usleep(100_000) }
        }
        #expect(served)
        #expect(server.stop() == 0)
    }
}
