import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap serve` as its own process against hostile upstreams of URL layers (issue 23): slow
/// redirects under cancellation, redirects to the same and to another origin, a body of 2 GiB.
/// Loopback only, bounded in rounds and time.
@Suite(.serialized) struct HostileUpstreamTests {
    static var hasProc: Bool { FileManager.default.fileExists(atPath: "/proc/self/status") }

    /// Starts `heatmap serve` with URL layers `name=template`.
    static func serve(_ layers: [(String, String)], timeout: Double) throws -> ServeProcess {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let flags = layers.flatMap { ["--layer", "\($0.0)=\($0.1)"] } + ["--upstream-timeout", "\(timeout)"]
        return try ServeProcess(flags + ["--no-watch"])
    }

    @Test("redirects that land while the timeout cancels: 16 tiles at once for 30 rounds, the server lives")
    func slowRedirectsUnderTimeout() throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let server = try Self.serve(
            [("a", upstream.template("redirect-slow")), ("b", upstream.template("redirect-fast"))], timeout: 1)
        defer { server.stop() }
        var statuses: [Int: Int] = [:]
        for round in 0..<30 {
            // 16 requests on 16 connections at once, then their answers.
            let clients = try (0..<16).map { _ in try server.client() }
            for (i, client) in clients.enumerated() {
                try client.send("GET /\(i % 2 == 0 ? "a" : "b")/6/\(round)/\(i).png HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            for client in clients { statuses[try client.read().status, default: 0] += 1 }
            try #require(server.process.isRunning, "the server died in round \(round): \(server.errorOutput())")
        }
        #expect(statuses == [503: 480], "a redirect is not available yet")
        #expect(try server.client().get("/health").status == 200)
        server.stop()
        #expect(!server.errorOutput().contains("Fatal error"))
    }

    @Test("no redirect is followed: to the same origin or another, the tile is 503 and only the 302 was asked for")
    func redirectsAreNotFollowed() throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let server = try Self.serve(
            [("near", upstream.template("redirect-png")), ("away", upstream.template("redirect-away"))], timeout: 2)
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.get("/near/3/1/2.png").status == 503)
        #expect(try client.get("/away/3/1/2.png").status == 503)
        #expect(upstream.snapshot.paths == ["/redirect-png/3/1/2.png", "/redirect-away/3/1/2.png"])
    }

    @Test(
        "a 2 GiB body stops at the 16 MiB limit: 503, the upstream sent little more, resident memory stays",
        .enabled(if: hasProc, "reads the server's memory from /proc"))
    func hugeBodyStopsAtTheLimit() throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let server = try Self.serve([("huge", upstream.template("huge"))], timeout: 20)
        defer { server.stop() }
        let client = try server.client(timeout: 30)
        #expect(try client.get("/huge/1/0/0.png").status == 503)
        let before = try #require(server.peakResidentBytes())
        for tile in ["1/1/0", "1/0/1", "1/1/1", "2/0/0"] {
            #expect(try client.get("/huge/\(tile).png").status == 503)
        }
        // The transfers stopped: what the upstream could send is the limit and the sockets' buffers.
        let sent = upstream.snapshot.floodBytesSent
        #expect(sent < 5 * (16 << 20 + 12 << 20), "the upstream sent \(sent >> 20) MiB for 5 tiles")
        let after = try #require(server.peakResidentBytes())
        #expect(after - before < 128 << 20, "peak resident memory grew \(before >> 20) -> \(after >> 20) MiB")
        #expect(try client.get("/health").status == 200)
    }
}
