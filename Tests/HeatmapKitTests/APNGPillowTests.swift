import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

/// Pillow, an independent APNG reader, plays our APNGs frame for frame: its frames equal the
/// images given, with the frame count, delays and loop count the file announces.
@Suite struct APNGPillowTests {
    static let script = """
        import base64, sys
        from PIL import Image
        with Image.open(sys.argv[1]) as im:
            print(im.format, im.n_frames, im.is_animated, im.info.get("loop"), im.default_image)
            for i in range(im.n_frames):
                im.seek(i)
                print(im.info.get("duration"), base64.b64encode(im.convert("RGBA").tobytes()).decode())
        """

    @Test(
        "Pillow decodes palette and RGBA animations to the frames given",
        .enabled(
            if: TestAPNG.pillowPython != nil || ProcessInfo.processInfo.environment["CI_REQUIRE_PILLOW"] != nil,
            "needs Pillow (pip install pillow in a venv; HEATMAP_PILLOW_PYTHON names its python)"))
    func pillow() throws {
        let python = try #require(TestAPNG.pillowPython, "CI_REQUIRE_PILLOW is set but Pillow is missing")
        let cases = [
            (TestAPNG.frames(count: 24, width: 160, height: 40), "palette"),
            (TestAPNG.frames(count: 4, width: 70, height: 30, manyColors: true), "rgba"),
        ]
        for (frames, name) in cases {
            let path = TestProgram.temporaryPath("apng", "\(name).png")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let bytes = try APNGEncoder.encode(frames, delay: .milliseconds(125), loopCount: 2)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let run = try TestProgram.run(python, ["-c", Self.script, path])
            #expect(run.status == 0, "\(run.standardError)")
            var lines = run.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "PNG \(frames.count) True 2 False", "\(name)")
            lines.removeFirst()
            #expect(lines.count == frames.count)
            for (k, line) in lines.enumerated() where k < frames.count {
                let parts = line.split(separator: " ")
                #expect(parts.first == "125.0", "\(name) frame \(k)")
                let pixels = parts.count == 2 ? Data(base64Encoded: String(parts[1])).map { [UInt8]($0) } : nil
                #expect(pixels == frames[k].pixels, "\(name) frame \(k) differs")
            }
        }
    }
}
