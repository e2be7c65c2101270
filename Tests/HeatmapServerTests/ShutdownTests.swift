import Dispatch
import Foundation
import HeatmapServer
import HeatmapTestSupport
import Testing

/// A responder that holds every answer until released: to see what the server does while
/// work is under way, without timing.
final class GateResponder: HTTPResponder {
    let arrived = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)

    func respond(to request: HTTPRequest) -> HTTPReply {
        .deferred { [arrived, gate] completion in
            arrived.signal()
            DispatchQueue.global().async {
                if request.path.hasPrefix("/slow") { gate.wait() }
                completion(.text(.ok, "released \(request.path)"))
            }
        }
    }
}

@Suite struct ShutdownTests {
    @Test func shutdownLetsWorkUnderWayFinishAndRefusesNewConnections() throws {
        let responder = GateResponder()
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: responder)
        server.start()
        let busy = try TestClient(port: server.port)
        let idle = try TestClient(port: server.port)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        responder.arrived.wait()
        server.shutdown(grace: 30)
        // The idle connection is closed and the listener gone while the slow answer is pending.
        #expect(idle.isClosedByServer())
        #expect(throws: (any Error).self) { try TestClient(port: server.port) }
        responder.gate.signal()
        let response = try busy.read()
        #expect(response.text == "released /slow\n")
        #expect(response.header("Connection") == "close")
        #expect(busy.isClosedByServer())
        server.waitUntilStopped()
    }

    @Test func pipelinedRequestsAreWorkedOnTogetherAndAnsweredInOrder() throws {
        let responder = GateResponder()
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: responder)
        server.start()
        defer {
            server.shutdown(grace: 1)
            server.waitUntilStopped()
        }
        let client = try TestClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        // Both reached the responder while the first is still held.
        responder.arrived.wait()
        responder.arrived.wait()
        responder.gate.signal()
        #expect(try client.read().text == "released /slow\n")
        #expect(try client.read().text == "released /fast\n")
    }

    @Test func aClientThatStopsReadingIsDisconnected() throws {
        var limits = HTTPLimits()
        limits.writeTimeout = 0.5
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let tiles = (0..<6).flatMap { dx in (0..<6).map { dy in "/police/8/\(228 + dx)/\(154 + dy)@3x.png" } }
        // Cached first, so the answers pile up at once rather than at the pace of rendering (a
        // debug build's @3x render can take over 10 s under load: a generous bound on each).
        let warm = try server.client(timeout: 60)
        for tile in tiles { _ = try warm.get(tile) }
        let client = try TestClient(port: server.port, receiveBuffer: 4096)
        // About 10 MB of answers: more than the kernel's socket buffers hold.
        let batch = tiles.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        try client.send(String(repeating: batch, count: 10))
        // Not reading until the server has given up on the write (its write timeout, 0.5 s without
        // progress): reading earlier would let its writes progress again. Then the stream ends early.
        let timedOut = try eventually(within: 60) { try server.metric("heatmap_timeouts_total") ?? 0 >= 1 }
        #expect(timedOut, "the server never timed the stalled write out")
        #expect(client.isClosedByServer())
        #expect(try server.metric("heatmap_timeouts_total") == 1)
        #expect(try server.client().get("/health").status == 200)
    }
}
