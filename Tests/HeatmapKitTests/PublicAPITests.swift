import Foundation
import Testing

/// The public API is what `api/public-symbols.txt` lists (CI compares it with the build's, see
/// `scripts/ci/public_api.py`), and the API table of docs/guides/library.md (README links to it)
/// names every public member of `HeatmapTileLayer` in it: Google's facade plus the documented additions.
@Suite struct PublicAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test("the library guide's API table names every public member of HeatmapTileLayer, and only public ones")
    func apiTable() throws {
        let symbols = try Self.text("api/public-symbols.txt").split(separator: "\n")
        let members = Set(
            symbols.compactMap { line -> String? in
                let path = line.split(separator: " ").last.map(String.init) ?? ""
                guard path.hasPrefix("HeatmapTileLayer."), !path.contains("!=") else { return nil }
                return String(path.dropFirst("HeatmapTileLayer.".count).prefix { $0 != "(" })
            })
        #expect(members.count > 20)
        let readme = try Self.text("docs/guides/library.md")
        let start = try #require(readme.range(of: "\n## Google's names and HeatmapKit's\n"))
        let end = readme.range(of: "\n## ", range: start.upperBound..<readme.endIndex)?.lowerBound ?? readme.endIndex
        let table = readme[start.upperBound..<end]
        for member in members.sorted() where member != "init" {
            #expect(
                table.contains("`\(member)") || table.contains(" \(member)("),
                "the library guide's API table lacks \(member)")
        }
        // The table's initialisers are public ones.
        for label in ["weightedData:", "values:", "file:", "table:", "mean:"] {
            #expect(table.contains("HeatmapTileLayer(\(label)"), "\(label)")
            #expect(symbols.contains { $0.contains("HeatmapTileLayer.init(\(label)") }, "\(label) is not public")
        }
        for hidden in ["drawTile", "normalizationValue", "normalizationIfReady", "knownMaxima", "replaceSource"] {
            #expect(!members.contains(hidden), "\(hidden) is the server's, not public")
            #expect(!table.contains("`\(hidden)"), "the library guide's API table names \(hidden)")
        }
    }

    @Test("the engine's insides are not public: HeatmapCore is re-exported by name")
    func insides() throws {
        let symbols = try Self.text("api/public-symbols.txt")
        for inside in [
            "SplitMix64", "ReferenceRenderer", "PixelWeightSink", "HeapCost", "DispatchTaskExecutor", "PartialUpdate",
            "PointIndex", "WeightSource", "PixelSpace", "TileService", "ServedLayer", "TileCache",
        ] {
            #expect(!symbols.contains(" \(inside)\n") && !symbols.contains(" \(inside)."), "\(inside) is public")
        }
        let exports = try Self.text("Sources/HeatmapKit/Exports.swift")
        #expect(!exports.contains("@_exported import HeatmapCore\n"))
    }
}
