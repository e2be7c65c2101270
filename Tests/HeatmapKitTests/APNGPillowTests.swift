import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

/// Pillow, an independent APNG reader, plays our APNGs frame for frame: its frames equal the
/// images given, with the frame count, delays and loop count the file announces.
@Suite struct APNGPillowTests {
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
            let read = try TestAPNG.pillowFrames(path, python: python)
            #expect(read.run.status == 0, "\(read.run.standardError)")
            #expect(read.header == "PNG \(frames.count) True 2 False", "\(name)")
            #expect(read.frames.count == frames.count)
            for (k, frame) in read.frames.enumerated() where k < frames.count {
                #expect(frame.duration == "125.0", "\(name) frame \(k)")
                #expect(frame.pixels == frames[k].pixels, "\(name) frame \(k) differs")
            }
        }
    }
}
