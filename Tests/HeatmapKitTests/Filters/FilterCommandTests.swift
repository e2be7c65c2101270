import Foundation
import HeatmapCore
import HeatmapTestSupport
import Testing

@testable import HeatmapKit

/// `--datetime`, `--category` and `--scale-of` on the command: the settings rows every front end
/// shares, drawing exactly the points kept, and bad filters refused (64) with the value named.
@Suite struct FilterCommandTests {
    static let rows = FilterColumnsTests.rows(count: 600, seed: 2028)

    static func csv() throws -> String { try FilterColumnsTests.files(rows)[0].0 }

    static let columns = ["--time", "when", "--categories", "kind"]

    /// The Float32 grid of `tile`'s `--format intensity` output.
    static func floats(_ bytes: [UInt8]) -> [Float] {
        stride(from: 0, to: bytes.count, by: 4).map { i in
            Float(
                bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
                    | UInt32(bytes[i + 3]) << 24)
        }
    }

    @Test(
        "tile --datetime --category --format intensity equals a brute-force sum over exactly the points kept",
        arguments: [
            (["--datetime", "2024-03-01/2024-09-01", "--category", "kind:theft,assault%2C%20armed"], 9),
            (["--datetime", "../2024-02-10T12:00:00Z"], 12),
            (["--category", "kind:fraud"], 5),
            (["--datetime", "2024-06-01/..", "--category", "kind:burglary"], 14),
        ])
    func bruteForce(_ filters: [String], zoom: Int) throws {
        var overrides: [(name: String, value: String)] = []
        for i in stride(from: 0, to: filters.count, by: 2) {
            overrides.append((String(filters[i].dropFirst(2)), filters[i + 1]))
        }
        let request = try #require(try SettingOverrides(query: overrides).filter)
        let kept = Self.rows.filter { row in
            request.window.contains(row.time)
                && request.categories.allSatisfy { $0.column == "kind" && $0.values.contains(row.kind) }
        }.map {
            WeightedLatLng(
                coordinate: Coordinate(latitude: $0.latitude, longitude: $0.longitude), intensity: Double($0.weight))
        }
        #expect(kept.count > 20)
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let (px, py) = space.pixel(of: kept[0].coordinate)
        let (x, y) = (px / space.tileSize, py / space.tileSize)
        let output = TestProgram.temporaryPath("filters", "tile.f32")
        let run = try TestProgram.heatmap(
            ["tile", try Self.csv(), "\(zoom)/\(x)/\(y)", "--format", "intensity", "--output", output] + Self.columns
                + filters)
        #expect(run.status == 0, "\(run.standardError)")
        let values = Self.floats([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
        let rect = PixelRect(tileX: x, y: y, in: space)
        let reference = ReferenceRenderer.intensity(of: kept, in: rect, space: space, radius: 20)
        let top = reference.max() ?? 0
        let worst = zip(values, reference).map { abs(Double($0) - $1) }.max() ?? .infinity
        #expect(values.count == reference.count && top > 0 && worst <= 1e-5 * top, "off by \(worst) of \(top)")
    }

    @Test("a filtered PNG equals the unfiltered PNG of a file holding only the points kept")
    func sameAsPrefiltered() throws {
        let filters = ["--datetime", "2024-04-01/2024-08-01", "--category", "kind:theft"]
        let window = try TimeWindow(parsing: "2024-04-01/2024-08-01")
        let kept = Self.rows.filter { window.contains($0.time) && $0.kind == "theft" }
        let subset = try FilterColumnsTests.files(kept)[0].0
        let (a, b) = (TestProgram.temporaryPath("filters", "a.png"), TestProgram.temporaryPath("filters", "b.png"))
        let filtered = try TestProgram.heatmap(
            ["tile", try Self.csv(), "8/230/157", "--output", a] + Self.columns + filters)
        let plain = try TestProgram.heatmap(["tile", subset, "8/230/157", "--output", b])
        #expect(filtered.status == 0 && plain.status == 0, "\(filtered.standardError) \(plain.standardError)")
        let (pa, pb) = (try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
        #expect(!pa.isEmpty && pa == pb)
    }

    @Test(
        "bad filters exit 64 naming the value",
        arguments: [
            (["--datetime", "2024-05-01/2024-03-01"], "reversed"),
            (["--datetime", "yesterday"], "\"yesterday\" is not a time"),
            (["--category", "kind:piracy"], "no value \"piracy\""),
            (["--category", "colour:red"], "column \"colour\" is not in the data"),
            (["--category", "kind:theft", "--category", "kind:fraud"], "given twice"),
            (["--category", "kind"], "has no ':'"),
            (["--scale-of", "some"], "scale-of \"some\" is not filter or all"),
            (["--category", "kind:" + (0..<101).map { "v\($0)" }.joined(separator: ",")], "at most 100"),
            (["--datetime", String(repeating: "9", count: 100_000)], "is not a time"),
        ])
    func refused(_ filters: [String], message: String) throws {
        let run = try TestProgram.heatmap(
            ["tile", try Self.csv(), "3/7/4", "--format", "intensity", "--output", "-"] + Self.columns + filters)
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(run.standardError.count < 1000)
    }

    @Test("a filter without the data's column says which option to add; a window missing the data is no tile")
    func needsColumns() throws {
        let run = try TestProgram.heatmap(["tile", try Self.csv(), "3/7/4", "--datetime", "2024-01-01/2024-02-01"])
        #expect(run.status == 64 && run.standardError.contains("--time COL"), "\(run.standardError)")
        let empty = try TestProgram.heatmap(
            ["tile", try Self.csv(), "3/7/4", "--datetime", "2030-01-01/2031-01-01"] + Self.columns)
        #expect(empty.status == 0 && empty.standardError.contains("no tile"), "\(empty.standardError)")
    }
}
