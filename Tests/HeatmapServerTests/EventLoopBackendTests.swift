import Foundation
import HeatmapTestSupport
import Testing

@testable import HeatmapServer

/// The two pollers behind the event loops: `HEATMAP_EVENT_LOOP` reaching the servers the tests
/// start (CI runs this suite a second time with `poll`), `/metrics` naming the one running, and
/// the connection behaviours that differ most between them on each backend this platform has.
@Suite struct EventLoopBackendTests {
    /// The backend the environment of this test run selects.
    static var selected: EventLoopBackend {
        get throws { try EventLoopBackend.chosen(in: ProcessInfo.processInfo.environment) }
    }

    static let available = EventLoopBackend.allCases.filter(\.isAvailable)

    @Test("HEATMAP_EVENT_LOOP: unset or empty is the platform's, a name picks, anything else is refused")
    func environmentChoosesTheBackend() throws {
        #expect(try EventLoopBackend.chosen(in: [:]) == .platformDefault)
        #expect(try EventLoopBackend.chosen(in: ["HEATMAP_EVENT_LOOP": ""]) == .platformDefault)
        #expect(try EventLoopBackend.chosen(in: ["HEATMAP_EVENT_LOOP": "poll"]) == .poll)
        #expect(try EventLoopBackend.chosen(in: ["HEATMAP_EVENT_LOOP": "POLL"]) == .poll)
        #if os(Linux)
            #expect(EventLoopBackend.platformDefault == .epoll)
            #expect(try EventLoopBackend.chosen(in: ["HEATMAP_EVENT_LOOP": "epoll"]) == .epoll)
        #else
            #expect(EventLoopBackend.platformDefault == .poll)
        #endif
        #expect(throws: SocketError.self) { try EventLoopBackend.chosen(in: ["HEATMAP_EVENT_LOOP": "kqueue"]) }
        do {
            _ = try EventLoopBackend.chosen(in: ["HEATMAP_EVENT_LOOP": "kqueue"])
        } catch {
            #expect(error.description.hasPrefix("HEATMAP_EVENT_LOOP=kqueue (give "), "\(error)")
        }
    }

    @Test("the servers the tests start run the backend the environment names, and /metrics says which")
    func environmentReachesTheServers() throws {
        let expected = try Self.selected
        let server = try TestServer()
        defer { server.stop() }
        #expect(server.server.eventLoop == expected)
        let metrics = try server.client().get("/metrics").text
        #expect(metrics.contains("heatmap_event_loop_info{backend=\"\(expected.rawValue)\"} 1\n"), "\(metrics)")
        let others = EventLoopBackend.allCases.filter { $0 != expected }
        for other in others { #expect(!metrics.contains("backend=\"\(other.rawValue)\"")) }
    }

    @Test("heatmap serve, a process of its own, runs the backend the environment names")
    func environmentReachesTheCommand() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let expected = try Self.selected
        let server = try ServeProcess(["--no-watch"])
        defer { server.stop() }
        let metrics = try server.client().get("/metrics").text
        #expect(metrics.contains("heatmap_event_loop_info{backend=\"\(expected.rawValue)\"} 1\n"), "\(metrics)")
    }

    @Test("heatmap serve refuses a HEATMAP_EVENT_LOOP it does not know, naming the variable and the choices")
    func commandRefusesAnUnknownBackend() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let process = Process()
        process.executableURL = ServeCommandTests.executable
        process.arguments = ["serve", try TestServer.fixturePath(), "--port", "0", "--no-watch"]
        process.environment = ProcessInfo.processInfo.environment.merging(["HEATMAP_EVENT_LOOP": "kqueue"]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        let choices = Self.available.map(\.rawValue).joined(separator: " or ")
        #expect(text.contains("HEATMAP_EVENT_LOOP=kqueue (give \(choices))"), "\(text)")
    }

    @Test("keep-alive, pipelining, deferred answers and many connections on each backend", arguments: available)
    func connectionsOnEachBackend(_ backend: EventLoopBackend) throws {
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, responder: PatternResponder(), threads: 2, eventLoop: backend)
        #expect(server.eventLoop == backend)
        server.start()
        defer {
            server.shutdown(grace: 1)
            server.waitUntilStopped()
        }
        let clients = try (0..<40).map { _ in try TestClient(port: server.port) }
        for round in 0..<3 {
            for (i, client) in clients.enumerated() {
                try client.send(
                    "GET /c\(i)/r\(round) HTTP/1.1\r\nHost: x\r\n\r\nGET /late/\(i * 1000 + 1) HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "GET /big/\(i * 9000 + 7) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            for (i, client) in clients.enumerated() {
                #expect(try client.read().text == "path /c\(i)/r\(round)\n")
                #expect(try client.read().body == PatternResponder.pattern(i * 1000 + 1, seed: i * 1000 + 1))
                #expect(try client.read().body == PatternResponder.pattern(i * 9000 + 7, seed: i * 9000 + 7))
            }
        }
        // Clients leaving: the loops forget them (poll's set shrinks with a swap) and serve the rest.
        let leaving = clients.indices.filter { $0 % 3 == 0 }
        for i in leaving { clients[i].shutdownWrite() }
        for i in leaving { #expect(clients[i].isClosedByServer()) }
        for (i, client) in clients.enumerated() where i % 3 != 0 {
            #expect(try client.get("/again-\(i)").text == "path /again-\(i)\n")
        }
    }

    @Test("a half-closed client still gets its answer, then the close, on each backend", arguments: available)
    func halfClosedClientsAreAnswered(_ backend: EventLoopBackend) throws {
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, responder: PatternResponder(), threads: 1, eventLoop: backend)
        server.start()
        defer {
            server.shutdown(grace: 1)
            server.waitUntilStopped()
        }
        for path in ["/late/70000", "/big/300000", "/plain"] {
            let client = try TestClient(port: server.port, receiveBuffer: 4096)
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            let response = try client.read()
            #expect(response.status == 200, "\(path)")
            if path != "/plain" {
                let count = Int(path.split(separator: "/")[1])!
                #expect(response.body == PatternResponder.pattern(count, seed: count), "\(path)")
            }
            #expect(client.isClosedByServer(), "\(path)")
        }
    }
}

/// The poll(2) backend's own bookkeeping, on pipes: registrations added, changed, skipped while
/// watched for nothing and removed out of order (its array fills holes with its last entry).
@Suite struct PollPollerTests {
    final class Pipe {
        let read: Int32
        let writer: Int32
        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            (read, writer) = (ends[0], ends[1])
        }
        /// Makes the read end readable.
        func poke() {
            var byte: UInt8 = 1
            _ = write(writer, &byte, 1)
        }
        deinit {
            close(read)
            close(writer)
        }
    }

    static func ready(_ poller: PollPoller, timeout: Int32 = 0) -> [UInt64: PollerEvent.Kind] {
        var events: [PollerEvent] = []
        poller.wait(timeout: timeout, into: &events)
        return Dictionary(events.map { ($0.id, $0.kind) }, uniquingKeysWith: { $0.union($1) })
    }

    @Test func registrationsAreReportedByTheirIdsAndForgottenInAnyOrder() throws {
        let pipes = try (0..<5).map { _ in try Pipe() }
        let poller = PollPoller()
        for (i, pipe) in pipes.enumerated() {
            #expect(poller.add(pipe.read, interest: .readable, id: UInt64(100 + i)))
        }
        #expect(!poller.add(pipes[0].read, interest: .readable, id: 9), "a descriptor is registered once")
        #expect(Self.ready(poller).isEmpty)
        pipes[1].poke()
        pipes[4].poke()
        #expect(Self.ready(poller, timeout: 1000) == [101: .readable, 104: .readable])
        // Watched for nothing: skipped, though still readable; watched again: reported again.
        #expect(poller.modify(pipes[1].read, interest: [], id: 101))
        #expect(Self.ready(poller) == [104: .readable])
        #expect(poller.modify(pipes[1].read, interest: .readable, id: 201))
        #expect(Self.ready(poller) == [201: .readable, 104: .readable])
        // Removing the first moves the last into its place; ids stay with their descriptors.
        poller.remove(pipes[0].read)
        poller.closing(pipes[1].read)
        #expect(Self.ready(poller) == [104: .readable])
        pipes[2].poke()
        #expect(Self.ready(poller) == [102: .readable, 104: .readable])
        #expect(!poller.modify(pipes[0].read, interest: .readable, id: 1), "removed")
        #expect(poller.add(pipes[0].read, interest: .readable, id: 300))
        pipes[0].poke()
        #expect(Self.ready(poller) == [300: .readable, 102: .readable, 104: .readable])
        // Writable ends.
        #expect(poller.add(pipes[3].writer, interest: .writable, id: 400))
        #expect(Self.ready(poller)[400] == .writable)
    }

    @Test func aWriterGoneIsReportedAsTheEndOfTheStream() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let poller = PollPoller()
        #expect(poller.add(ends[0], interest: .readable, id: 7))
        close(ends[1])
        let kind = try #require(Self.ready(poller, timeout: 1000)[7])
        // Linux says hang-up (both sides gone); XNU's POLLHUP is read as "read the end of file".
        #expect(kind.contains(Posix.pollHangupMeansClosed ? .hangup : .readable), "\(kind)")
    }
}
