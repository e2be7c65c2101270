import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap serve --write-token-file`, run as a user runs it.
@Suite struct ServeWriteTokenTests {
    static let secret = "cmd-t0ken-77e2"

    /// Runs `heatmap serve` with `arguments`; its status and both outputs, once it exits.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = ServeCommandTests.executable
        process.arguments = ["serve"] + arguments
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func tokenFile(_ text: String) throws -> URL {
        let url = TestScratch.folder.appendingPathComponent("token-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("bad write options are named, and the token's text never printed")
    func mistakes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let data = try TestServer.fixturePath()
        let size = try run([data, "--max-body-mb", "0", "--port", "0"])
        #expect(size.status == 64 && size.output.contains("--max-body-mb 0"))
        let missing = try run([data, "--write-token-file", "/nonexistent/token", "--port", "0"])
        #expect(missing.status == 1 && missing.output.contains("/nonexistent/token"))
        let spaced = try tokenFile("two words \(Self.secret)\n")
        defer { try? FileManager.default.removeItem(at: spaced) }
        let bad = try run([data, "--write-token-file", spaced.path, "--port", "0"])
        #expect(bad.status == 1 && bad.output.contains(spaced.path) && !bad.output.contains(Self.secret))
    }

    @Test("points posted with the token show; SIGHUP reloads the file and drops them; the token is never printed")
    func postThenReload() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServeCommandTests.executable.path))
        let data = try TestServer.fixturePath()
        let token = try tokenFile(Self.secret + "\n")
        defer { try? FileManager.default.removeItem(at: token) }
        let process = Process()
        process.executableURL = ServeCommandTests.executable
        process.arguments = ["serve", data, "--port", "0", "--write-token-file", token.path, "--no-watch"]
        let errors = Pipe()
        process.standardError = errors
        let (banner, started) = try process.runServing()
        defer { if process.isRunning { process.terminate() } }
        let port = try #require(started)
        let client = try TestClient(port: port)
        let before = try client.get("/police_stations/7/115/78.png")
        let body = Array("lat,lng,weight\n-37.81,144.96,40\n".utf8)
        let posted = try LivePointsTests.send(
            client, "POST", "/police_stations/points", body: body,
            headers: ["Authorization": "Bearer \(Self.secret)", "Content-Type": "text/csv"])
        #expect(posted.status == 200)
        #expect(try client.get("/police_stations/7/115/78.png").body != before.body)
        kill(process.processIdentifier, SIGHUP)
        #expect(try client.waitForReloads(1))
        #expect(try client.get("/police_stations/7/115/78.png").body == before.body)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!log.contains(Self.secret) && !banner.contains(Self.secret))
    }
}
