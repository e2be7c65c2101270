import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// `?datetime=&category=&scale-of=` on the server: the same bytes as the command, 400 naming
/// what the data lack, 204 for a filter that keeps nothing, the bounded cache counted in
/// `/metrics`, the time range and categories in TileJSON, hostile input refused.
@Suite struct FilterRouteTests {
    /// Seeded points near Melbourne with a time in 2024 and a kind (one with a comma).
    static func csv(in folder: TemporaryFolder) throws -> String {
        var random = SplitMix64(seed: 2806)
        let kinds = ["theft", "burglary", "a,b", "fraud"]
        var text = "lat,lng,weight,when,kind\n"
        for _ in 0..<800 {
            let lat = -37.81 + Double(Int.random(in: -3000...3000, using: &random)) / 100_000
            let lng = 144.96 + Double(Int.random(in: -3000...3000, using: &random)) / 100_000
            let t = 1_704_067_200 + Int64.random(in: 0..<(366 * 86_400), using: &random)
            let kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
            text += "\(lat),\(lng),\(Int.random(in: 1...3, using: &random)),\(t),\"\(kind)\"\n"
        }
        let path = folder.file("points.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static var options: PointReadOptions {
        var options = PointReadOptions()
        options.timeColumn = "when"
        options.categoryColumns = ["kind"]
        return options
    }

    static func service(_ path: String) throws -> TileService {
        let data = try LayerData.load(path: path, options: options)
        return try TileService(layers: [try ServedLayer(name: "p", settings: .paletteDefault, data: data)])
    }

    static func answer(_ service: TileService, _ path: String) -> (status: Int, body: [UInt8]) {
        SettingFrontEndTests.answer(service, path)
    }

    static let tile = "11/1848/1256"

    @Test(
        "a filtered tile is the command's, byte for byte",
        arguments: [
            (
                "datetime=2024-03-01/2024-09-01&category=kind:theft,a%2Cb",
                ["--datetime", "2024-03-01/2024-09-01", "--category", "kind:theft,a%2Cb"]
            ),
            ("category=kind:fraud&scale-of=all", ["--category", "kind:fraud", "--scale-of", "all"]),
            ("datetime=../2024-05-01", ["--datetime", "../2024-05-01"]),
        ])
    func sameAsCommand(_ query: String, flags: [String]) throws {
        let folder = try TemporaryFolder("filter-routes")
        defer { folder.remove() }
        let path = try Self.csv(in: folder)
        let served = Self.answer(try Self.service(path), "/p/\(Self.tile).png?\(query)")
        #expect(served.status == 200)
        let output = folder.file("tile.png")
        let run = try TestProgram.heatmap(
            ["tile", path, Self.tile, "--time", "when", "--categories", "kind", "--output", output] + flags)
        #expect(run.status == 0, "\(run.standardError)")
        let command = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(!command.isEmpty && served.body == command)
    }

    @Test("scale-of=all colours by every point's M(z): the filter's tile with that fixed maximum")
    func scaleOfAll() throws {
        let folder = try TemporaryFolder("filter-scale")
        defer { folder.remove() }
        let path = try Self.csv(in: folder)
        let service = try Self.service(path)
        let data = try LayerData.load(path: path, options: Self.options)
        let all = try HeatmapTileLayer(index: data.index, settings: .paletteDefault).normalizationDetails(zoom: 11)
        let scaled = Self.answer(service, "/p/\(Self.tile).png?category=kind:fraud&scale-of=all")
        let fixed = Self.answer(service, "/p/\(Self.tile).png?category=kind:fraud&max-intensity=\(all.value)")
        let own = Self.answer(service, "/p/\(Self.tile).png?category=kind:fraud")
        #expect(scaled.status == 200 && scaled.body == fixed.body)
        #expect(own.body != scaled.body, "the filter's own M(z) is smaller: brighter colours")
    }

    @Test(
        "what the data lack is a 400 naming it; a filter keeping nothing is a 204",
        arguments: [
            ("category=kind:piracy", 400, "no value \"piracy\""),
            ("category=colour:red", 400, "column \"colour\" is not in the data"),
            ("datetime=2024-05-01/2024-03-01", 400, "reversed"),
            ("datetime=soon", 400, "\"soon\" is not a time"),
            ("category=kind:theft&category=kind:fraud", 400, "given twice"),
            ("category=kind:%ZZ", 400, "percent-encoding"),
            ("scale-of=most", 400, "scale-of \"most\""),
            ("datetime=2031-01-01/2032-01-01", 204, ""),
        ])
    func refusals(_ query: String, status: Int, message: String) throws {
        let folder = try TemporaryFolder("filter-400")
        defer { folder.remove() }
        let answer = Self.answer(try Self.service(try Self.csv(in: folder)), "/p/\(Self.tile).png?\(query)")
        #expect(answer.status == status)
        #expect(
            message.isEmpty || String(decoding: answer.body, as: UTF8.self).contains(message),
            "\(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test("hostile filters: 100+ values, huge strings, many parameters are 400s, never a trap")
    func hostile() throws {
        let folder = try TemporaryFolder("filter-hostile")
        defer { folder.remove() }
        let service = try Self.service(try Self.csv(in: folder))
        let many = (0..<150).map { "v\($0)" }.joined(separator: ",")
        let columns = (0..<120).map { "category=c\($0):x" }.joined(separator: "&")
        for query in [
            "category=kind:\(many)", columns, "datetime=" + String(repeating: "2", count: 50_000),
            "category=" + String(repeating: "%41", count: 20_000) + ":x", "datetime=1/2/3",
            "datetime=-99999999999999999999/..",
        ] {
            let answer = Self.answer(service, "/p/\(Self.tile).png?\(query)")
            #expect(answer.status == 400, "\(query.prefix(80))")
            #expect(answer.body.count < 1000)
        }
    }

    @Test("the filter cache keeps at most its bound, least recently used first, and /metrics counts it")
    func cacheBound() throws {
        let folder = try TemporaryFolder("filter-cache")
        defer { folder.remove() }
        let path = try Self.csv(in: folder)
        let file = try PointFileReader.read(path: path, options: Self.options)
        let filters = try #require(file.filters)
        let views = FilteredLayers(source: filters, settings: .paletteDefault, capacity: 2, capacityBytes: 1 << 30)
        let kinds = ["theft", "fraud", "burglary"]
        for kind in kinds + ["theft"] {
            let filter = try PointFilter(
                window: .all, categories: [CategorySelection(column: "kind", values: [kind])],
                dictionaries: filters.dictionaries)
            #expect(try views.layer(for: filter) != nil)
        }
        let counts = views.counts
        #expect(counts.entries == 2 && counts.misses == 4 && counts.evictions == 2 && counts.hits == 0)
        #expect(counts.bytes <= views.capacityBytes)
        let service = try Self.service(path)
        _ = Self.answer(service, "/p/\(Self.tile).png?category=kind:theft")
        _ = Self.answer(service, "/p/\(Self.tile).png?category=kind:theft&radius=30")
        let metrics = String(decoding: Self.answer(service, "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("heatmap_filter_cache_misses_total 1\n"))
        #expect(metrics.contains("heatmap_filter_cache_hits_total 1\n"))
        #expect(metrics.contains("heatmap_filter_cache_entries 1\n"))
    }

    @Test("a new filter's layer answers not-yet from tileIfReady while its M(z) is computed")
    func notYet() throws {
        let folder = try TemporaryFolder("filter-ready")
        defer { folder.remove() }
        let file = try PointFileReader.read(path: try Self.csv(in: folder), options: Self.options)
        let views = FilteredLayers(source: try #require(file.filters), settings: .paletteDefault)
        let layer = try #require(
            try views.layer(for: PointFilter(window: try TimeWindow(parsing: "2024-06-01/2024-07-01"), masks: [])))
        let (x, y) = (1848, 1256)
        #expect(try layer.tileIfReady(x: x, y: y, zoom: 11) == .notAvailableYet)
        let drawn = try layer.tileFor(x: x, y: y, zoom: 11)
        #expect(drawn != .notAvailableYet)
        #expect(try layer.tileIfReady(x: x, y: y, zoom: 11) == drawn)
    }

    @Test("TileJSON and /catalog list the time range and each category's values")
    func documents() throws {
        let folder = try TemporaryFolder("filter-docs")
        defer { folder.remove() }
        let service = try Self.service(try Self.csv(in: folder))
        for path in ["/p.json", "/catalog"] {
            let text = String(decoding: Self.answer(service, path).body, as: UTF8.self)
            #expect(text.contains("\"timeRange\":[\"2024-01-"), "\(path)")
            #expect(text.contains("\"column\":\"kind\"") && text.contains("\"value\":\"a,b\""), "\(path)")
        }
    }
}
