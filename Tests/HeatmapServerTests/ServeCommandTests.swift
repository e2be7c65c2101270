import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap serve`, run as a user runs it: flags, layers, signals, mistakes.
@Suite struct ServeCommandTests {
    /// The built `heatmap` executable beside the test bundle.
    static var executable: URL { TestProgram.heatmap }

    /// Runs a command that should fail at once; its status and standard error.
    func fail(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let run = try TestProgram.heatmap(["serve"] + arguments)
        return (run.status, run.standardError)
    }

    @Test func servesLayersReloadsOnSIGHUPAndStopsOnSIGTERM() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let data = try TestServer.fixturePath()
        let config = TestScratch.folder.appendingPathComponent("serve-\(getpid()).json")
        let layers = "{\"layers\": [{\"name\": \"fire\", \"file\": \"\(data)\", \"gradient\": \"fire\"}]}"
        try Data(layers.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", data, "--config", config.path, "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        let (banner, started) = try process.runServing()
        defer { if process.isRunning { process.terminate() } }
        // "heatmap: serving police_stations, fire on http://127.0.0.1:PORT/"
        let port = try #require(started)
        #expect(banner.hasPrefix("heatmap: serving police_stations, fire on http://127.0.0.1:"))
        let client = try TestClient(port: port)
        let catalog = try client.get("/catalog").text
        #expect(catalog.contains("\"name\":\"police_stations\"") && catalog.contains("\"name\":\"fire\""))
        let plain = try client.get("/police_stations/6/57/39.png")
        let fire = try client.get("/fire/6/57/39.png")
        #expect(plain.status == 200 && fire.status == 200 && plain.header("ETag") != fire.header("ETag"))

        kill(process.processIdentifier, SIGHUP)
        #expect(try client.waitForReloads(2))
        #expect(try client.get("/police_stations/6/57/39.png").header("ETag") == plain.header("ETag"))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("heatmap: reloaded") && log.contains("heatmap: shutting down"))
    }

    @Test func mistakesAreNamed() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path))
        let data = try TestServer.fixturePath()
        let usage = try fail([])
        #expect(usage.status == 64 && usage.error.contains("at least one DATA"))
        #expect(try fail([data, "--layer", "nofile"]).status == 64)
        #expect(try fail([data, "--gradient", "rainbow"]).status == 64)
        #expect(try fail([data, "--radius", "5", "--port", "0"]).error.contains(#"radius "5""#))
        #expect(try fail([data, "--port", "70000"]).status == 64)
        let missing = try fail(["/nonexistent/points.json", "--port", "0"])
        #expect(missing.status == 1 && missing.error.contains("/nonexistent/points.json"))
        let badName = try fail(["--layer", "a/b=\(data)", "--port", "0"])
        #expect(badName.status == 1 && badName.error.contains("layer name"))
        let host = try fail([data, "--host", "not-an-address", "--port", "0"])
        #expect(host.status == 1 && host.error.contains("not-an-address"))
        // The data options of every command: the reader's error names the line; a bad format is a usage error.
        let csv = TestScratch.folder.appendingPathComponent("serve-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: csv) }
        try Data("lat,lng,pop\n-37.8,144.9,5\n95,1,1\n".utf8).write(to: csv)
        let bad = try fail([csv.path, "--weight", "pop", "--port", "0"])
        #expect(bad.status == 1 && bad.error.contains("\(csv.path):3: latitude \"95\" is out of range"))
        #expect(try fail([csv.path, "--data-format", "xml", "--port", "0"]).status == 64)
        let column = try fail([csv.path, "--weight", "population", "--port", "0"])
        #expect(column.status == 1 && column.error.contains("population"))
    }
}
