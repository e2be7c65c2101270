import Dispatch
import Foundation
import HeatmapServer
import Testing

/// Answers `/big/N` with N bytes of a pattern (deferred to another thread for `/late/N`), and
/// anything else with its path.
struct PatternResponder: HTTPResponder {
    /// `count` bytes of `seed`'s low byte, the count in the first eight: cheap even in a debug build.
    static func pattern(_ count: Int, seed: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: seed &* 31 &+ 7), count: count)
        for i in 0..<min(8, count) { bytes[i] = UInt8(truncatingIfNeeded: count >> (8 * i)) }
        return bytes
    }

    func respond(to request: HTTPRequest) -> HTTPReply {
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, let count = Int(parts[1]), (0...(8 << 20)).contains(count) else {
            return .response(.text(.ok, "path \(request.path)"))
        }
        let response = HTTPResponse(status: .ok, body: Self.pattern(count, seed: count))
        if parts[0] == "late" {
            return .deferred { completion in DispatchQueue.global().async { completion(response) } }
        }
        return .response(response)
    }
}

@Suite struct EventLoopTests {
    @Test func connectionsSpreadOverLoopsAreEachAnsweredInOrder() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: PatternResponder(), threads: 4)
        #expect(server.threads == 4)
        server.start()
        defer {
            server.shutdown(grace: 1)
            server.waitUntilStopped()
        }
        let clients = try (0..<12).map { _ in try TestClient(port: server.port) }
        for round in 0..<3 {
            for (i, client) in clients.enumerated() {
                try client.send(
                    "GET /c\(i)/r\(round) HTTP/1.1\r\nHost: x\r\n\r\nGET /late/\(i + 1) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            for (i, client) in clients.enumerated() {
                #expect(try client.read().text == "path /c\(i)/r\(round)\n")
                #expect(try client.read().body == PatternResponder.pattern(i + 1, seed: i + 1))
            }
        }
        #expect(server.stats.openConnections.load(ordering: .relaxed) == 12)
    }

    @Test func largePipelinedBodiesArriveWholeThroughWritev() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: PatternResponder(), threads: 2)
        server.start()
        defer {
            server.shutdown(grace: 1)
            server.waitUntilStopped()
        }
        // A small receive buffer makes the server write in many partial writev calls.
        let client = try TestClient(port: server.port, receiveBuffer: 4096)
        let sizes = [3 << 20, 1, 0, 700_001, 65_536, 12]
        try client.send(sizes.map { "GET /\($0 % 2 == 0 ? "big" : "late")/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for size in sizes {
            let response = try client.read()
            #expect(response.status == 200)
            #expect(response.body == PatternResponder.pattern(size, seed: size))
        }
    }

    @Test func theConnectionCapCountsOverAllLoops() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 3
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, limits: limits, responder: PatternResponder(), threads: 3)
        server.start()
        defer {
            server.shutdown(grace: 1)
            server.waitUntilStopped()
        }
        var held = try (0..<3).map { _ in try TestClient(port: server.port) }
        for client in held { #expect(try client.get("/x").status == 200) }
        let extra = try TestClient(port: server.port)
        #expect(try extra.read().status == 503)
        #expect(server.stats.rejectedConnections.load(ordering: .relaxed) == 1)
        held.removeFirst()  // closes it; the loop that had it counts it out
        var open = 3
        for _ in 0..<200 where open > 2 {
            open = server.stats.openConnections.load(ordering: .relaxed)
            if open > 2 { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(open == 2)
        let next = try TestClient(port: server.port)
        #expect(try next.get("/y").status == 200)
    }

    @Test func aBodyRequestGets405ListingTheResponderMethods() throws {
        let service = try TestServer()
        defer { service.stop() }
        let client = try service.client()
        try client.send("PUT /police/1/0/0.png HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx")
        let response = try client.read()
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
    }
}
