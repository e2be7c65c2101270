import Foundation
import HeatmapTestSupport
import Testing

/// `/static/…png?datetime=A/B&step=1d&window=2d`: the APNG `heatmap image` writes for the same
/// settings, byte for byte; bad steps, windows, intervals and categories are 400s naming them.
@Suite struct StaticAnimationTests {
    static let incidents = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/incidents.csv").path

    @Test("the server's animation is the command's; errors are 400s naming the value")
    func sameBytes() throws {
        let output = TestProgram.temporaryPath("anim", "served.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let made = try TestProgram.heatmap([
            "image", Self.incidents, "--time", "time", "--categories", "kind", "--center", "-37.2,144.6", "--zoom", "6",
            "--size", "160x96", "--datetime", "2024-03-01/2024-03-25", "--step", "1d", "--window", "2d",
            "--category", "kind:burglary,theft", "--output", output,
        ])
        try #require(made.status == 0, "\(made.standardError)")
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))

        let process = Process()
        process.executableURL = TestProgram.heatmap
        process.arguments = ["serve", Self.incidents, "--time", "time", "--categories", "kind", "--port", "0"]
        process.standardError = Pipe()
        let (_, started) = try process.runServing()
        defer { if process.isRunning { process.terminate() } }
        let client = try TestClient(port: try #require(started))
        let path = "/static/incidents/144.6,-37.2,6/160x96.png"
        let served = try client.get(
            path + "?datetime=2024-03-01/2024-03-25&step=1d&window=2d&category=kind:burglary,theft")
        #expect(served.status == 200, "\(served.text.prefix(200))")
        #expect(served.body == expected, "\(served.body.count) bytes served, \(expected.count) written")
        for (query, message) in [
            ("step=0d", "the step must be positive, not 0d"),
            ("window=2d", "window= needs step="),
            ("datetime=2000-01-01/2024-01-01&step=1h", "makes 210384 frames"),
            ("datetime=2024-03-05/2024-03-01&step=1d", "reversed"),
            ("datetime=2024-03-01/2024-03-05&step=1d&category=kind:arson", "arson"),
        ] {
            let answer = try client.get(path + "?" + query)
            #expect(answer.status == 400, "\(query)")
            #expect(answer.text.contains(message), "\(query): \(answer.text.prefix(300))")
        }
        let large = try client.get(
            "/static/incidents/144.6,-37.2,6/1280x1280.png?datetime=2024-01-01/2025-01-01&step=1d")
        #expect(large.status == 400 && large.text.contains("over the server's"), "\(large.text.prefix(300))")
    }
}
