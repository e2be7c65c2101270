import Foundation
import HeatmapServer
import HeatmapTestSupport
import Testing

/// A responder answering every path with its own text at once.
struct EchoResponder: HTTPResponder {
    func respond(to request: HTTPRequest) -> HTTPReply {
        .response(.text(.ok, "path \(request.path)"))
    }
}

@Suite struct AccessLogTests {
    static func temporaryPath(_ name: String) -> String {
        TestScratch.folder.appendingPathComponent("heatmap-access-\(UUID().uuidString)-\(name)")
            .path
    }

    /// Reads the log until it holds `count` lines (the writer flushes within half a second), at most 10 s.
    static func lines(_ path: String, count: Int) -> [String] {
        var lines: [String] = []
        for _ in 0..<200 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map(String.init)
            if lines.count >= count { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return lines
    }

    @Test func logsEachRequestInTheCommonFormatWithoutHeadersOrSecrets() throws {
        let path = Self.temporaryPath("common.log")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try AccessLog(path: path)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: EchoResponder(), accessLog: log)
        server.start()
        let client = try TestClient(port: server.port)
        try client.send(
            "GET /a/1/2/3.png?token=s3cret&radius=20 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer hidden-value\r\n\r\n"
                + "HEAD /b HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try client.read()
        #expect(first.status == 200)
        _ = try client.read(headOnly: true)
        try client.send("GET / HTTP/9.9\r\n\r\n")
        #expect(try client.read().status == 505)
        server.shutdown(grace: 1)
        server.waitUntilStopped()
        log.close()
        let lines = Self.lines(path, count: 3)
        #expect(lines.count == 3)
        let common = #/^127\.0\.0\.1 - - \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d \+0000\] "([^"]*)" (\d{3}) (\d+|-)$/#
        let parsed = lines.compactMap { line in try? common.wholeMatch(in: line).map { ($0.1, $0.2, $0.3) } }
        #expect(parsed.count == 3, "\(lines)")
        guard parsed.count == 3 else { return }
        #expect(parsed[0].0 == "GET /a/1/2/3.png?token=REDACTED&radius=20 HTTP/1.1")
        #expect(parsed[0].1 == "200" && parsed[0].2 == Substring(String(first.body.count)))
        #expect(parsed[1].0 == "HEAD /b HTTP/1.1" && parsed[1].2 == "-")
        #expect(parsed[2].0 == "-" && parsed[2].1 == "505")
        let text = lines.joined(separator: "\n")
        #expect(!text.contains("s3cret") && !text.contains("hidden-value") && !text.contains("Bearer"))
    }

    @Test func reopenWritesToANewFileAfterTheOldOneWasMovedAway() throws {
        let path = Self.temporaryPath("rotated.log")
        let moved = path + ".1"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: moved)
        }
        let log = try AccessLog(path: path)
        log.log(peer: "192.0.2.1", requestLine: "GET /before HTTP/1.1", status: 200, bytes: 5)
        #expect(Self.lines(path, count: 1).count == 1)
        try FileManager.default.moveItem(atPath: path, toPath: moved)
        try log.reopen()
        log.log(peer: "192.0.2.1", requestLine: "GET /after HTTP/1.1", status: 204, bytes: 0)
        log.close()
        let old = Self.lines(moved, count: 1)
        let new = Self.lines(path, count: 1)
        #expect(old.count == 1 && old.first?.contains("/before") == true)
        #expect(new.count == 1 && new.first?.contains("\"GET /after HTTP/1.1\" 204 -") == true)
    }

    @Test func aFileThatCannotBeOpenedIsAnErrorNamingIt() {
        let path = "/nonexistent-heatmap-dir/access.log"
        #expect(throws: AccessLogError.self) { try AccessLog(path: path) }
        do {
            _ = try AccessLog(path: path)
        } catch {
            #expect(error.description.contains(path))
        }
    }
}
