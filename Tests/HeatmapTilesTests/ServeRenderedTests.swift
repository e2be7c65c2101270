import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap serve` of what `heatmap render` wrote, beside the live layer, as a user runs them.
@Suite struct ServeRenderedTests {
    /// GET over loopback: status and body (status 0 when no answer came).
    static func get(_ url: String) throws -> LoopbackHTTP.Answer { try LoopbackHTTP.getWaiting(url) }

    @Test("serve DATA heat.mbtiles --layer pm=heat.pmtiles DIR: the stored tiles are the live ones")
    func serve() throws {
        let data = Fixtures.path("police_stations.json")
        let folder = Fixtures.temporaryPath("serve")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for output in ["heat.mbtiles", "heat.pmtiles", "tiles"] {
            let run = try Fixtures.heatmap([
                "render", data, "--zoom", "0-7", "--output", "\(folder)/\(output)", "--quiet",
            ])
            #expect(run.status == 0, "\(run.standardError)")
        }
        let process = Process()
        process.executableURL = Fixtures.executable
        process.arguments = [
            "serve", data, "\(folder)/heat.mbtiles", "--layer", "pm=\(folder)/heat.pmtiles", "\(folder)/tiles",
            "--port", "0",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var banner = ""
        while !banner.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        #expect(banner.hasPrefix("heatmap: serving police_stations, heat, tiles, pm on http://127.0.0.1:"))
        let port = try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let base = "http://127.0.0.1:\(port)"
        let live = try Self.get("\(base)/police_stations/6/57/39.png")
        #expect(live.status == 200)
        for layer in ["heat", "pm", "tiles"] {
            let stored = try Self.get("\(base)/\(layer)/6/57/39.png")
            #expect(stored.status == 200 && stored.body == live.body, "\(layer)")
            #expect(try Self.get("\(base)/\(layer)/6/0/0.png").status == 204)
            let json = try Self.get("\(base)/\(layer).json")
            #expect(json.status == 200 && String(decoding: json.body, as: UTF8.self).contains("\"maxzoom\":7"))
        }
        process.terminate()
        process.waitUntilExit()
    }
}
