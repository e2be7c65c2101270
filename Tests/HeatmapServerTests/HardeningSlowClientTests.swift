import Foundation
import HeatmapTestSupport
import Testing

/// Slow clients against `heatmap serve` with short timeouts (`--request-timeout`,
/// `--write-timeout`): slowloris heads are answered 408 and closed, a client that never reads is
/// dropped even while it keeps sending, and neither starves the others, who keep getting tiles.
@Suite(.serialized) struct HardeningSlowClientTests {
    static let tile = "/police_stations/6/57/39.png"

    @Test("slowloris: a byte of head every 250 ms is cut off by the head timeout with 408")
    func slowloris() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let server = try ServeProcess(["--request-timeout", "1", "--no-watch"])
        defer { server.stop() }
        let good = try server.client()
        let known = try good.get(Self.tile).body
        let slow = try (0..<20).map { _ in try server.client(timeout: 10) }
        for client in slow { try client.send("GET \(Self.tile) HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
        var cut = Set<Int>()
        // 3 s of trickling, three times the timeout; the others' tiles come meanwhile.
        for round in 0..<12 {
            for (i, client) in slow.enumerated() where !cut.contains(i) {
                do { try client.send("X-Slow-\(round): 1\r\n") } catch { cut.insert(i) }
            }
            #expect(try good.get(Self.tile).body == known, "round \(round)")
            usleep(250_000)
        }
        for client in slow {
            let response = try client.read()
            #expect(response.status == 408)
            #expect(client.isClosedByServer())
        }
        let stats = try HardeningConnectionTests.metric("heatmap_timeouts_total", good)
        #expect(stats == 20)
        #expect(try good.get("/police_stations/7/115/78@2x.png").status == 200)
    }

    @Test("a client that never reads is dropped by the write timeout, even while it keeps sending")
    func neverReads() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let server = try ServeProcess(["--write-timeout", "1", "--no-watch"])
        defer { server.stop() }
        let good = try server.client()
        let known = try good.get(Self.tile).body
        // Big tiles, cached first (so answers come at once), asked for at once by clients with a
        // small receive buffer that read nothing: 16 MiB of answers, more than the kernel's
        // socket buffers on loopback hold.
        var drawn: [String] = []
        var bytes = 0
        for dx in 0..<8 {
            for dy in 0..<8 {
                let path = "/police_stations/8/\(228 + dx)/\(154 + dy)@3x.png"
                let response = try good.get(path)
                if response.status == 200 {
                    drawn.append(path)
                    bytes += response.body.count
                }
            }
        }
        try #require(bytes > 0)
        let repeats = (16 << 20) / bytes + 1
        let wire = (0..<repeats).flatMap { _ in drawn }.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
            .joined()
        let stalled = try (0..<4).map { _ in try TestClient(port: server.port, timeout: 10, receiveBuffer: 4096) }
        for client in stalled { try client.send(wire + "GET \(Self.tile) HTTP/1.1\r\n") }
        var dropped = Set<Int>()
        // 4 s: a header byte every 250 ms from each, which must not count as progress of the writes.
        for round in 0..<16 {
            for (i, client) in stalled.enumerated() where !dropped.contains(i) {
                do { try client.send("X") } catch { dropped.insert(i) }
            }
            #expect(try good.get(Self.tile).body == known, "round \(round)")
            usleep(250_000)
        }
        // A send into a connection the server closed fails (reset) within a round or two.
        for (i, client) in stalled.enumerated() where !dropped.contains(i) {
            for _ in 0..<8 where !dropped.contains(i) {
                do { try client.send("X") } catch { dropped.insert(i) }
                usleep(50_000)
            }
            #expect(client.isClosedByServer())
        }
        #expect(dropped.count == stalled.count, "\(dropped.count) of \(stalled.count) stalled clients dropped")
        #expect(try HardeningConnectionTests.metric("heatmap_timeouts_total", good) == Double(stalled.count))
        #expect(try good.get("/police_stations/7/115/78@2x.png").status == 200)
    }
}
