import Foundation
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// The command's fetch backend (libcurl on Linux) against a loopback upstream: redirects are
/// answered, not followed; a body stops at the limit; timeouts and cancellation end a GET; many
/// GETs cancelled while redirects land never stop the process.
@Suite(.enabled(if: TileFetchBackend.shared != nil, "the platform fetches with URLSession (no libcurl backend)"))
struct TileFetchTests {
    /// The backend (the suite runs only where there is one).
    static var fetcher: any TileFetching {
        TileFetchBackend.shared ?? URLSessionTileFetcher(timeout: 10, maximumConnectionsPerHost: 6, maximumBytes: 1)
    }

    static func url(_ upstream: Upstream, _ mode: String, _ tile: String = "1/0/0") -> URL {
        var parts = URLComponents()
        parts.scheme = "http"
        parts.host = "127.0.0.1"
        parts.port = upstream.port
        parts.path = "/\(mode)/\(tile).png"
        return parts.url ?? URL(fileURLWithPath: "/")
    }

    @Test("a PNG is read whole; 404 and 500 are answered as they are")
    func plain() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let png = await Self.fetcher.get(Self.url(upstream, "png"), timeout: 5, maximumBytes: 1 << 20)
        #expect(png == TileResponse(status: 200, body: upstream.png))
        #expect(await Self.fetcher.get(Self.url(upstream, "404"), timeout: 5, maximumBytes: 1 << 20)?.status == 404)
        #expect(await Self.fetcher.get(Self.url(upstream, "500"), timeout: 5, maximumBytes: 1 << 20)?.status == 500)
    }

    @Test("a redirect to the same origin or another is the answer: nothing more is asked for")
    func redirects() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        for mode in ["redirect-png", "redirect-away"] {
            let answer = await Self.fetcher.get(Self.url(upstream, mode), timeout: 5, maximumBytes: 1 << 20)
            #expect(answer?.status == 302, "\(mode)")
        }
        #expect(upstream.snapshot.paths == ["/redirect-png/1/0/0.png", "/redirect-away/1/0/0.png"])
    }

    @Test("a body beyond the limit is nil and the transfer stops: the upstream sends little more than the limit")
    func limit() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        #expect(await Self.fetcher.get(Self.url(upstream, "huge"), timeout: 20, maximumBytes: 1 << 20) == nil)
        // Loopback's socket buffers hold a few MiB more than the client read; 2 GiB was on offer.
        try #require(eventually(within: 10) { upstream.snapshot.inFlight == 0 })
        #expect(upstream.snapshot.floodBytesSent < 32 << 20, "\(upstream.snapshot.floodBytesSent >> 20) MiB sent")
    }

    @Test("a hanging upstream ends at the timeout; a cancelled task's GET ends at once")
    func timeoutAndCancel() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        #expect(await Self.fetcher.get(Self.url(upstream, "hang"), timeout: 0.3, maximumBytes: 1 << 20) == nil)
        let task = Task {
            await Self.fetcher.get(Self.url(upstream, "hang", "2/0/0"), timeout: 60, maximumBytes: 1 << 20)
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        #expect(await task.value == nil)
    }

    @Test("400 GETs of slow redirects with short timeouts and cancellations: each answered once, none crashes")
    func cancellationRaces() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let answered = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<400 {
                group.addTask {
                    let url = Self.url(upstream, i % 2 == 0 ? "redirect-fast" : "redirect-slow", "9/\(i)/0")
                    let task = Task {
                        await Self.fetcher.get(url, timeout: 0.02 + Double(i % 7) * 0.01, maximumBytes: 1 << 20)
                    }
                    if i % 3 == 0 { task.cancel() }
                    _ = await task.value
                    return true
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 400)
        #expect(await Self.fetcher.get(Self.url(upstream, "png"), timeout: 5, maximumBytes: 1 << 20)?.status == 200)
    }
}
