import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Synchronization
import Testing

/// One settings schema behind every front end: the same value given as a query parameter, a
/// configuration key and a command's flag draws the same tile, byte for byte, and a value a
/// setting does not take gives the same message in all three.
@Suite struct SettingFrontEndTests {
    /// A setting as each front end spells it.
    struct Spelling: Sendable, CustomStringConvertible {
        var query: String
        var config: String
        var flags: [String]
        var description: String { query }
    }

    static let tile = (zoom: 7, x: 115, y: 78)

    static let values: [Spelling] = [
        Spelling(query: "radius=30", config: #""radius": 30"#, flags: ["--radius", "30"]),
        Spelling(query: "radius-meters=3000", config: #""radiusMeters": 3000"#, flags: ["--radius-meters", "3000"]),
        Spelling(query: "opacity=0.45", config: #""opacity": 0.45"#, flags: ["--opacity", "0.45"]),
        Spelling(query: "gradient=viridis", config: #""gradient": "viridis""#, flags: ["--gradient", "viridis"]),
        Spelling(
            query: "gradient=0000ff:0.2,ff0000:1", config: #""gradient": "0000ff:0.2,ff0000:1""#,
            flags: ["--gradient", "0000ff:0.2,ff0000:1"]),
        Spelling(query: "color-scale=log", config: #""colorScale": "log""#, flags: ["--color-scale", "log"]),
        Spelling(query: "max=3", config: #""maxIntensity": 3"#, flags: ["--max-intensity", "3"]),
        Spelling(query: "max-intensity=3", config: #""max-intensity": 3"#, flags: ["--max-intensity", "3"]),
        Spelling(query: "max-percentile=95", config: #""maxPercentile": 95"#, flags: ["--max-percentile", "95"]),
        Spelling(
            query: "aggregate=mean&value-range=0,400", config: #""aggregate": "mean", "valueRange": [0, 400]"#,
            flags: ["--aggregate", "mean", "--value-range", "0,400"]),
    ]

    static let refused: [Spelling] = [
        Spelling(query: "radius=5", config: #""radius": 5"#, flags: ["--radius", "5"]),
        Spelling(query: "radius-meters=-2", config: #""radiusMeters": -2"#, flags: ["--radius-meters", "-2"]),
        Spelling(query: "opacity=1.5", config: #""opacity": 1.5"#, flags: ["--opacity", "1.5"]),
        Spelling(query: "gradient=rainbow", config: #""gradient": "rainbow""#, flags: ["--gradient", "rainbow"]),
        Spelling(query: "color-scale=cubic", config: #""colorScale": "cubic""#, flags: ["--color-scale", "cubic"]),
        Spelling(query: "max=0", config: #""maxIntensity": 0"#, flags: ["--max-intensity", "0"]),
        Spelling(query: "max-percentile=101", config: #""maxPercentile": 101"#, flags: ["--max-percentile", "101"]),
        Spelling(query: "aggregate=median", config: #""aggregate": "median""#, flags: ["--aggregate", "median"]),
    ]

    /// Points with a value for the mean: the police stations, each valued by its longitude's hundredths.
    static func data(in folder: TemporaryFolder) throws -> String {
        let json = try Data(contentsOf: URL(fileURLWithPath: TestServer.fixturePath()))
        let points = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Double]])
        var csv = "lat,lng,size\n"
        for point in points {
            let (lat, lng) = (point["lat"] ?? 0, point["lng"] ?? 0)
            csv += "\(lat),\(lng),\(Int((lng * 100).rounded()) % 400)\n"
        }
        let path = folder.file("stations.csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reading the data's values for the mean.
    static var withValues: PointReadOptions {
        var options = PointReadOptions()
        options.valueColumn = "size"
        return options
    }

    /// What the in-process server answers for `path`: the status and body.
    static func answer(_ service: TileService, _ path: String) -> (status: Int, body: [UInt8]) {
        switch service.respond(to: HTTPRequest(method: "GET", target: path)) {
        case .response(let response): return (response.status.code, response.body)
        case .deferred(let start):
            let done = DispatchSemaphore(value: 0)
            let answer = Mutex<(Int, [UInt8])>((0, []))
            start { response in
                answer.withLock { $0 = (response.status.code, response.body) }
                done.signal()
            }
            done.wait()
            return answer.withLock { $0 }
        }
    }

    /// A server of the data with `config`'s layer settings (as `serve --config` reads them).
    static func configured(_ data: String, _ config: String, in folder: TemporaryFolder) throws -> TileService {
        let path = folder.file("serve-\(UUID().uuidString).json")
        try Data(#"{"layers": [{"name": "p", "file": "\#(data)", "value": "size", \#(config)}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let layer = try #require(try ServeConfiguration.load(path: path).layers?.first)
        // The server's base, as serve's: Google's settings with the 160-entry colour map.
        let settings = try layer.settings.applied(to: .paletteDefault)
        let loaded = try LayerData.load(path: data, options: Self.withValues)
        return try TileService(layers: [try ServedLayer(name: "p", settings: settings, data: loaded)])
    }

    @Test("a query parameter, a configuration key and a flag draw the same tile", arguments: values)
    func sameTile(_ spelling: Spelling) throws {
        let folder = try TemporaryFolder("settings-front-ends")
        defer { folder.remove() }
        let data = try Self.data(in: folder)
        let (z, x, y) = Self.tile
        let plain = try TileService(
            layers: [
                try ServedLayer(
                    name: "p", settings: .paletteDefault,
                    data: try LayerData.load(path: data, options: Self.withValues))
            ])
        let query = Self.answer(plain, "/p/\(z)/\(x)/\(y).png?\(spelling.query)")
        #expect(query.status == 200)
        let config = Self.answer(try Self.configured(data, spelling.config, in: folder), "/p/\(z)/\(x)/\(y).png")
        #expect(config.status == 200)
        let output = folder.file("flag.png")
        let run = try TestProgram.heatmap(
            ["tile", data, "\(z)/\(x)/\(y)", "--value", "size", "--output", output] + spelling.flags)
        #expect(run.status == 0, "\(run.standardError)")
        let flag = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(!query.body.isEmpty)
        #expect(query.body == config.body, "query and configuration differ for \(spelling)")
        #expect(query.body == flag, "query and flag differ for \(spelling)")
    }

    @Test("a value a setting does not take gives one message in every front end", arguments: refused)
    func sameMessage(_ spelling: Spelling) throws {
        let folder = try TemporaryFolder("settings-messages")
        defer { folder.remove() }
        let data = try Self.data(in: folder)
        let plain = try TileService(layers: [try ServedLayer(name: "p", data: try LayerData.load(path: data))])
        let query = Self.answer(plain, "/p/7/115/78.png?\(spelling.query)")
        #expect(query.status == 400)
        let message = String(decoding: query.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.isEmpty)
        do {
            _ = try Self.configured(data, spelling.config, in: folder)
            Issue.record("the configuration took \(spelling.config)")
        } catch {
            #expect("\(error)".hasSuffix(message), "configuration: \(error)")
        }
        let run = try TestProgram.heatmap(
            ["tile", data, "7/115/78", "--output", folder.file("x.png")] + spelling.flags)
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "flag: \(run.standardError)")
    }
}
