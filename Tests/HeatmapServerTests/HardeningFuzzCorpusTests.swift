import Foundation
import HeatmapTestSupport
import Testing

/// The inputs `scripts/ci/http_fuzz_full.py` kept (cases whose answers were new, and any case at
/// fault), replayed against `heatmap serve`: each connection's bytes sent at once, the write
/// side closed, every answer read until the server closes. Each answer must be well-formed
/// HTTP/1.1 with no 5xx but 503 and 505; a case marked `refused` (a traversal or an overlong
/// encoding) must not be 200; and the server answers the known tile with the same bytes after
/// every 50 cases.
@Suite struct HardeningFuzzCorpusTests {
    static let known = "/police_stations/6/57/39.png"

    static func corpus() throws -> URL {
        try #require(Bundle.module.url(forResource: "http-corpus", withExtension: nil, subdirectory: "Fixtures"))
    }

    /// Sends the bytes, closes the write side and reads to the end (at most `timeout` seconds a read).
    static func exchange(_ bytes: [UInt8], port: Int) throws -> [UInt8] {
        let client = try TestClient(port: port, timeout: 10)
        do { try client.send(bytes) } catch { return [] }  // refused mid-send: the answer is what came
        client.shutdownWrite()
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(client.fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        return received
    }

    /// The statuses of a stream of responses, or what is malformed in it.
    static func statuses(_ bytes: [UInt8]) -> Result<[Int], TestClient.Failure> {
        var statuses: [Int] = []
        var i = 0
        let prefix = Array("HTTP/1.1 ".utf8)
        func startsResponse(_ at: Int) -> Bool { at + 9 <= bytes.count && Array(bytes[at..<at + 9]) == prefix }
        while i < bytes.count {
            guard startsResponse(i), i + 12 <= bytes.count,
                let status = Int(String(decoding: bytes[(i + 9)..<(i + 12)], as: UTF8.self))
            else { return .failure(TestClient.Failure(description: "no status line at byte \(i)")) }
            var end: Int?
            var j = i
            while j + 3 < bytes.count {
                if bytes[j] == 13, bytes[j + 1] == 10, bytes[j + 2] == 13, bytes[j + 3] == 10 {
                    end = j
                    break
                }
                j += 1
            }
            guard let headEnd = end else { return .failure(TestClient.Failure(description: "a head without its end")) }
            let head = String(decoding: bytes[i..<headEnd], as: UTF8.self).lowercased()
            var length = 0
            for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                guard let value = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) else {
                    return .failure(TestClient.Failure(description: "bad Content-Length in \(line)"))
                }
                length = value
            }
            let body = headEnd + 4
            // No body for 204 and 304, nor for an answer to HEAD (another response or the end follows).
            if status == 204 || status == 304 || startsResponse(body) || body == bytes.count { length = 0 }
            guard body + length <= bytes.count else {
                return .failure(TestClient.Failure(description: "a body cut short"))
            }
            statuses.append(status)
            i = body + length
        }
        return .success(statuses)
    }

    @Test("the fuzzer's corpus: well-formed answers, no 5xx, traversals refused, the server alive")
    func replay() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let directory = try Self.corpus()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".http") }
            .sorted()
        try #require(files.count >= 100, "the corpus holds \(files.count) cases")
        // With the fuzzer's write token, so that its chunked bodies are read (DELETEs of points
        // not in the layer: 400, nothing changed).
        let token = TestScratch.folder.appendingPathComponent("fuzz-\(UUID().uuidString).token")
        try Data("fuzz-write-token-not-secret\n".utf8).write(to: token)
        defer { try? FileManager.default.removeItem(at: token) }
        let server = try ServeProcess(["--no-watch", "--cache-mb", "16", "--write-token-file", token.path])
        defer { server.stop() }
        let known = try server.client().get(Self.known).body
        var answered = 0
        var refusals = 0
        for (n, file) in files.enumerated() {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
            let sidecar = directory.appendingPathComponent(String(file.dropLast(5)) + ".json")
            let refused =
                (try? Data(contentsOf: sidecar)).map { String(decoding: $0, as: UTF8.self) }?
                .contains("\"refused\": true") ?? false
            switch Self.statuses(try Self.exchange(bytes, port: server.port)) {
            case .failure(let failure): Issue.record("\(file): \(failure)")
            case .success(let statuses):
                answered += statuses.count
                for status in statuses {
                    #expect(status < 500 || status == 503 || status == 505, "\(file): \(status)")
                }
                if refused {
                    refusals += 1
                    #expect(statuses.first != 200, "\(file): a traversal answered 200")
                }
            }
            if n % 50 == 49 || n == files.count - 1 {
                #expect(try server.client().get(Self.known).body == known, "after \(file)")
            }
        }
        #expect(answered >= files.count / 2)
        #expect(refusals > 0)
        #expect(server.stop() == 0)
    }
}
