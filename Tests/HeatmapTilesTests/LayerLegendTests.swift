import Foundation
import Testing

/// Legends of every layer kind `heatmap serve` serves: archives `render` wrote (their stored
/// legends), stacks (each member's), URL layers (404 with the reason).
@Suite struct LayerLegendTests {
    struct Stop: Decodable, Equatable {
        var value: Double
        var color: String
    }
    struct Live: Decodable {
        var maximum: Double
        var stops: [Stop]
    }
    struct Stored: Decodable {
        struct Legend: Decodable {
            var maximum: Double
            var normalization: String
            var stops: [Stop]
        }
        var layer: String
        var zoom: Int
        var stored: Bool
        var legend: Legend
    }
    struct StackDocument: Decodable {
        struct Member: Decodable {
            var layer: String
            var kind: String
            var legend: Live?
            var stored: Stored?
            var reason: String?
        }
        var layer: String
        var members: [Member]
    }

    @Test("archives answer their stored legend, stacks list their members', URL layers 404 with the reason")
    func everyKind() throws {
        let data = Fixtures.path("police_stations.json")
        let folder = Fixtures.temporaryPath("legends")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for output in ["heat.mbtiles", "heat.pmtiles"] {
            let run = try Fixtures.heatmap([
                "render", data, "--zoom", "0-7", "--output", "\(folder)/\(output)", "--quiet",
            ])
            #expect(run.status == 0, "\(run.standardError)")
        }
        let config = "\(folder)/serve.json"
        try Data(
            """
            {"layers": [{"name": "police", "file": "\(data)"}, {"name": "mb", "file": "heat.mbtiles"},
                        {"name": "pm", "file": "heat.pmtiles"}, {"name": "base", "url": "file://\(folder)/none/{z}/{x}/{y}.png"}],
             "stacks": [{"name": "map", "layers": ["base", "mb", "police"]}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        let process = Process()
        process.executableURL = Fixtures.executable
        process.arguments = ["serve", "--config", config, "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var banner = ""
        while !banner.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        let port = try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let base = "http://127.0.0.1:\(port)"
        func get(_ path: String) throws -> (status: Int, text: String, body: Data) {
            let answer = try ServeRenderedTests.get(base + path)
            return (answer.status, String(decoding: answer.body, as: UTF8.self), Data(answer.body))
        }
        let live = try JSONDecoder().decode(Live.self, from: try get("/police/legend.json?z=6").body)
        for layer in ["mb", "pm"] {
            let answer = try get("/\(layer)/legend.json?z=6")
            #expect(answer.status == 200, "\(layer): \(answer.text)")
            let stored = try JSONDecoder().decode(Stored.self, from: answer.body)
            #expect(stored.stored && stored.zoom == 6 && stored.legend.normalization == "maximum")
            #expect(stored.legend.maximum == live.maximum && stored.legend.stops == live.stops, "\(layer)")
            let beyond = try get("/\(layer)/legend.json?z=9")
            #expect(beyond.status == 404, "\(beyond.text)")
            #expect(beyond.text.contains("no legend for zoom 9 (rendered: 0...7)"), "\(beyond.text)")
            #expect(try get("/\(layer)/legend.png?z=6").status == 404)
            let tuned = try get("/\(layer)/legend.json?z=6&radius=30")
            #expect(tuned.status == 400 && tuned.text.contains("fixed"), "\(tuned.text)")
        }
        let url = try get("/base/legend.json?z=6")
        #expect(url.status == 404 && url.text.contains("from a URL"), "\(url.text)")
        #expect(try get("/nothing/legend.json?z=6").status == 404)
        for (query, heatmap) in [
            ("", live),
            (
                "&radius=30",
                try JSONDecoder().decode(Live.self, from: try get("/police/legend.json?z=6&radius=30").body)
            ),
        ] {
            let answer = try get("/map/legend.json?z=6" + query)
            #expect(answer.status == 200, "\(answer.text)")
            let stack = try JSONDecoder().decode(StackDocument.self, from: answer.body)
            #expect(stack.layer == "map" && stack.members.map(\.kind) == ["url", "stored", "heatmap"])
            #expect(stack.members[0].reason != nil && stack.members[0].legend == nil)
            #expect(stack.members[1].stored?.legend.maximum == live.maximum)
            #expect(
                stack.members[2].legend?.maximum == heatmap.maximum && stack.members[2].legend?.stops == heatmap.stops)
        }
        #expect(
            live.maximum
                != (try JSONDecoder().decode(Live.self, from: try get("/police/legend.json?z=6&radius=30").body))
                .maximum)
        let png = try get("/map/legend.png?z=6")
        #expect(png.status == 404 && png.text.contains("/police/legend.png"), "\(png.text)")
        #expect(try get("/map/legend.json").status == 400)
    }
}
