import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// `heatmap info --postgres --zoom` prints its M(z) lines as `heatmap info` of a file does:
/// `M(3) = 4.0 (radius 20, scale 1)`; it printed `(radius 20), scale 1)`.
@Suite(.serialized, .needsPostgres) struct InfoTableTextTests {
    @Test("M(z) lines read as a file's, the same value in the same words")
    func normalizationLines() throws {
        let cluster = try TestCluster.require()
        let points = PostgresSourceTests.points
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try PostgresImport.run(points: points, into: "info_text", connection: cluster.conninfo, mode: .replace)
        let fromTable = try HeatmapCommand.run(
            ["info", "--postgres", cluster.url, "--table", "info_text", "--zoom", "0,3", "--scale", "2"])
        let fromFile = try HeatmapCommand.run(["info", file, "--zoom", "0,3", "--scale", "2"])
        #expect(fromTable.status == 0 && fromFile.status == 0, "\(fromTable.standardError)")
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n").filter { $0.hasPrefix("M(") }.map(String.init)
        }
        #expect(lines(fromTable.standardOutput).count == 2, "\(fromTable.standardOutput)")
        #expect(lines(fromTable.standardOutput) == lines(fromFile.standardOutput), "\(fromTable.standardOutput)")
        #expect(lines(fromTable.standardOutput).allSatisfy { $0.hasSuffix(" (radius 20, scale 2)") })
    }
}
