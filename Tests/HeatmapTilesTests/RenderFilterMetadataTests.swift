import Foundation
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// What `heatmap render` says of a filtered render and of a stack in the archive's metadata:
/// the filters in the description and the options; a stack's lack of a legend, and why.
@Suite struct RenderFilterMetadataTests {
    /// The metadata `render` writes for `arguments` (zooms 9-10 into MBTiles).
    static func metadata(_ arguments: [String], folder: TemporaryFolder) throws -> TileMetadata {
        let output = folder.file("heat-\(UUID().uuidString).mbtiles")
        let run = try Fixtures.heatmap(
            ["render"] + arguments + ["--time", "when", "--categories", "kind", "--zoom", "9-10", "--output", output]
                + ["--quiet", "--jobs", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        return try TileArchive.open(output).metadata
    }

    @Test("a filtered render's description and options name its filters and count the points kept of those read")
    func filteredFile() throws {
        let folder = try TemporaryFolder("render-filter-metadata")
        defer { folder.remove() }
        let (all, kept) = try RenderFilterLegendTests.files(in: folder, filter: "window")
        let rows = try String(contentsOfFile: kept, encoding: .utf8).split(separator: "\n").count - 1
        let filtered = try Self.metadata(
            [all, "--datetime", "2024-03-01/2024-07-01", "--category", "kind:theft,arson"], folder: folder)
        let query = "datetime=2024-03-01T00:00:00Z%2F2024-07-01T00:00:00Z&category=kind:theft,arson"
        #expect(filtered.options["filter"] == query)
        #expect(filtered.options["points"] == "1200")
        #expect(filtered.options["kept"] == String(rows))
        #expect(filtered.description.hasPrefix("Heatmap of \(rows) of 1200 points from all that \(query) keeps ("))
        let whole = try Self.metadata([all], folder: folder)
        #expect(whole.options["filter"] == nil && whole.options["kept"] == nil)
        #expect(whole.description.hasPrefix("Heatmap of 1200 points from all ("))
    }

    @Test("a stack's metadata hold no legend and say why, and name its heatmaps' filters")
    func stack() throws {
        let folder = try TemporaryFolder("render-stack-metadata")
        defer { folder.remove() }
        let (all, kept) = try RenderFilterLegendTests.files(in: folder) { _, kind in kind == "fraud" }
        let layers = ["--layer", "a=\(all)", "--layer", "b=\(kept)", "--layer", "a+b"]
        let plain = try Self.metadata(layers, folder: folder)
        #expect(plain.legends == nil)
        #expect(
            plain.description == "Stack of a, b; no legend: each layer keeps its own colour scale "
                + "(serve's /{stack}/legend.json lists them)")
        #expect(plain.options["filter"] == nil)
        let filtered = try Self.metadata(layers + ["--category", "kind:fraud"], folder: folder)
        #expect(filtered.legends == nil)
        #expect(filtered.options["filter"] == "category=kind:fraud")
        #expect(filtered.description.hasPrefix("Stack of a, b (heatmaps filtered by category=kind:fraud); no legend"))
    }
}
