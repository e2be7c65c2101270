import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap serve` of a file whose name is no layer name: the error says how to name it.
@Suite struct ServeLayerNameTests {
    @Test("a file named with a space is refused at once, the message naming --layer NAME=FILE")
    func fileWithSpace() throws {
        let folder = TestScratch.folder.appendingPathComponent("serve-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("my points.csv")
        try Data("lat,lng\n-37.8,144.9\n".utf8).write(to: file)
        let run = try TestProgram.heatmap(["serve", file.path, "--port", "0"])
        #expect(run.status == 64, "\(run.standardError)")
        #expect(run.standardError.contains("layer name \"my points\""), "\(run.standardError)")
        #expect(run.standardError.contains("--layer NAME=\(file.path)"), "\(run.standardError)")
    }
}
