import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// `heatmap render --datetime --category --scale-of` writes the legends its tiles are coloured
/// by: with `scale-of=filter`, those of a file holding only the points kept; with
/// `scale-of=all`, every point's M(z) as a fixed maximum.
@Suite struct RenderFilterLegendTests {
    /// Seeded points near Melbourne over 2024 with a kind; `keep` picks the rows of the second file.
    static func files(in folder: TemporaryFolder, keep: (Int64, String) -> Bool) throws -> (all: String, kept: String) {
        var random = SplitMix64(seed: 2807)
        let kinds = ["theft", "fraud", "arson"]
        var all = "lat,lng,weight,when,kind\n"
        var kept = all
        for i in 0..<1200 {
            // The fraud points sit apart and are fewer, so their own M(z) is not every point's.
            let kind = kinds[i % 7 == 0 ? 1 : (i % 2 == 0 ? 0 : 2)]
            let spread = kind == "fraud" ? 800 : 4000
            let lat = -37.81 + Double(Int.random(in: -spread...spread, using: &random)) / 100_000
            let lng = 144.96 + Double(Int.random(in: -spread...spread, using: &random)) / 100_000
            let t = 1_704_067_200 + Int64.random(in: 0..<(366 * 86_400), using: &random)
            let row = "\(lat),\(lng),\(Int.random(in: 1...3, using: &random)),\(t),\(kind)\n"
            all += row
            if keep(t, kind) { kept += row }
        }
        let paths = (folder.file("all.csv"), folder.file("kept.csv"))
        try Data(all.utf8).write(to: URL(fileURLWithPath: paths.0))
        try Data(kept.utf8).write(to: URL(fileURLWithPath: paths.1))
        return paths
    }

    /// The files of the tests' two filters: `fraud` (`--category kind:fraud`), or the window
    /// 2024-03-01/2024-07-01 of kinds theft and arson.
    static func files(in folder: TemporaryFolder, filter name: String) throws -> (all: String, kept: String) {
        let window = try TimeWindow(parsing: "2024-03-01/2024-07-01")
        return try files(in: folder) { time, kind in
            name == "fraud" ? kind == "fraud" : kind != "fraud" && window.contains(time)
        }
    }

    /// The legends `render` writes for `arguments` (zooms 9-12 into MBTiles).
    static func legends(_ arguments: [String], folder: TemporaryFolder) throws -> [String: TileLegend] {
        try render(arguments, folder: folder).legends
    }

    /// What `render` writes for `arguments` (zooms 9-12 into MBTiles): the legends, and the
    /// tile 11/1848/1256 over the points.
    static func render(_ arguments: [String], folder: TemporaryFolder) throws -> (
        legends: [String: TileLegend], tile: [UInt8]?
    ) {
        let output = folder.file("heat-\(UUID().uuidString).mbtiles")
        let run = try Fixtures.heatmap(
            ["render"] + arguments + ["--time", "when", "--categories", "kind", "--zoom", "9-12", "--output", output]
                + ["--quiet", "--jobs", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        let archive = try TileArchive.open(output)
        return (try #require(archive.metadata.legends), try archive.tileData(z: 11, x: 1848, y: 1256))
    }

    /// The same colour scale: M(z) equal but for rounding, the same stops' colours.
    static func expectSame(_ found: TileLegend?, _ wanted: TileLegend?, _ comment: Comment) {
        guard let found, let wanted else {
            Issue.record("a legend is missing: \(comment)")
            return
        }
        #expect(abs(found.maximum - wanted.maximum) <= 1e-9 * wanted.maximum, comment)
        #expect(found.stops.map(\.color) == wanted.stops.map(\.color), comment)
        #expect(found.colorScale == wanted.colorScale, comment)
    }

    @Test(
        "the legends of a filtered render are those of the kept points' file",
        arguments: [
            (["--category", "kind:fraud"], "fraud"),
            (["--datetime", "2024-03-01/2024-07-01", "--category", "kind:theft,arson"], "window"),
        ])
    func followTheFilter(_ filter: [String], _ name: String) throws {
        let folder = try TemporaryFolder("render-filter-legend")
        defer { folder.remove() }
        let (all, kept) = try Self.files(in: folder, filter: name)
        let filtered = try Self.legends([all] + filter, folder: folder)
        let wanted = try Self.legends([kept], folder: folder)
        let whole = try Self.legends([all], folder: folder)
        #expect(filtered.keys.sorted() == ["10", "11", "12", "9"])
        for zoom in 9...12 {
            let key = String(zoom)
            Self.expectSame(filtered[key], wanted[key], "z \(zoom)")
            #expect(filtered[key]?.maximum != whole[key]?.maximum, "z \(zoom): the filter's M(z) is its own")
        }
    }

    @Test("a configuration layer's own keys win over the flags with filters too: its radius, its tiles, its legends")
    func configurationKeysWin() throws {
        let folder = try TemporaryFolder("render-filter-config")
        defer { folder.remove() }
        let (all, _) = try Self.files(in: folder) { _, _ in false }
        func config(_ keys: String) throws -> String {
            let path = folder.file("serve-\(UUID().uuidString).json")
            let text = "{\"layers\": [{\"name\": \"p\", \"file\": \"\(all)\", \"radius\": 30\(keys)}]}"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let flags = try Self.render(
            ["--config", try config(""), "--layer", "p", "--category", "kind:fraud", "--radius", "15"], folder: folder)
        let keys = try Self.render(
            ["--config", try config(", \"category\": \"kind:fraud\""), "--layer", "p"], folder: folder)
        #expect(flags.tile != nil && flags.tile == keys.tile)
        for zoom in 9...12 { Self.expectSame(flags.legends[String(zoom)], keys.legends[String(zoom)], "z \(zoom)") }
    }

    @Test("with --scale-of all the legends hold every point's M(z), fixed")
    func scaleOfAll() throws {
        let folder = try TemporaryFolder("render-filter-legend-all")
        defer { folder.remove() }
        let (all, _) = try Self.files(in: folder) { _, _ in false }
        let filtered = try Self.legends([all, "--category", "kind:fraud", "--scale-of", "all"], folder: folder)
        let whole = try Self.legends([all], folder: folder)
        for zoom in 9...12 {
            let key = String(zoom)
            #expect(filtered[key]?.normalization == "fixed", "z \(zoom)")
            #expect(filtered[key]?.maximum == whole[key]?.maximum, "z \(zoom)")
        }
    }

    @Test(
        "a filtered render of a file records kept= and the kept points' extent, as a table's does",
        arguments: [
            (["--category", "kind:fraud"], "fraud"),
            (["--datetime", "2024-03-01/2024-07-01", "--category", "kind:theft,arson"], "window"),
        ])
    func keptMetadata(_ filter: [String], _ name: String) throws {
        let folder = try TemporaryFolder("render-filter-kept")
        defer { folder.remove() }
        let (all, kept) = try Self.files(in: folder, filter: name)
        func metadata(_ arguments: [String]) throws -> TileMetadata {
            let output = folder.file("meta-\(UUID().uuidString).mbtiles")
            let run = try Fixtures.heatmap(
                ["render"] + arguments + ["--time", "when", "--categories", "kind", "--zoom", "9-10"]
                    + ["--output", output, "--quiet"])
            #expect(run.status == 0, "\(run.standardError)")
            return try TileArchive.open(output).metadata
        }
        let filtered = try metadata([all] + filter)
        let wanted = try metadata([kept])
        // Brute force: the rows of the kept file (all of positive weight).
        let rows = try String(contentsOfFile: kept, encoding: .utf8).split(separator: "\n").count - 1
        #expect(rows > 50 && rows < 1200)
        #expect(filtered.options["kept"] == String(rows))
        #expect(filtered.options["points"] == "1200")
        let query = try #require(filtered.options["filter"])
        #expect(
            filtered.description.hasPrefix("Heatmap of \(rows) of 1200 points from all that \(query) keeps ("),
            "\(filtered.description)")
        // The kept points' extent as the index holds them: the kept file's as read, to 1e-6°.
        for (found, want) in [
            (filtered.bounds.south, wanted.bounds.south), (filtered.bounds.west, wanted.bounds.west),
            (filtered.bounds.north, wanted.bounds.north), (filtered.bounds.east, wanted.bounds.east),
        ] {
            #expect(abs(found - want) <= 1e-6, "\(filtered.bounds) against \(wanted.bounds)")
        }
        #expect(filtered.bounds != (try metadata([all])).bounds)
    }
}
