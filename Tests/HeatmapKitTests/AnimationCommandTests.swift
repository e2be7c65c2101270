import Foundation
import HeatmapCore
import HeatmapTestSupport
import Testing

@testable import HeatmapKit

/// `heatmap image … --datetime A/B --step S --window W`: an APNG whose every frame is the still
/// image of its window's points with the window written in a corner, on one colour scale; bad
/// steps, windows and intervals are usage errors naming the value.
@Suite struct AnimationCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let incidents = root.appendingPathComponent("Examples/incidents.csv").path
    static let view = ["--center", "-37.2,144.6", "--zoom", "6", "--size", "160x96"]
    static let image = ["image", incidents, "--time", "time", "--categories", "kind"] + view
    /// 24 daily frames of two days each over 2024-03-01 to 03-25.
    static let animation = image + ["--datetime", "2024-03-01/2024-03-25", "--step", "1d", "--window", "2d"]

    /// The frames of the APNG `heatmap image arguments` writes, decoded, and the whole file.
    static func frames(_ arguments: [String]) throws -> (frames: [RGBAImage], file: [UInt8], run: TestProgram.Run) {
        let output = TestProgram.temporaryPath("anim", "anim.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try TestProgram.heatmap(arguments + ["--output", output])
        guard run.status == 0 else { return ([], [], run) }
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        return (try TestAPNG.framePNGs(file).map { try PNGDecoder.decode($0) }, file, run)
    }

    /// The still image of exactly the points of one window (and of `kind` when given), drawn by
    /// `heatmap image` from a file of those points alone (brute force: no filter index), with the
    /// window's label drawn as a frame has it.
    static func still(_ window: FramePlan.Window, _ options: [String], kind: String? = nil) throws -> RGBAImage? {
        let points = TestProgram.temporaryPath("anim", "window.csv")
        let output = TestProgram.temporaryPath("anim", "still.png")
        defer {
            try? FileManager.default.removeItem(atPath: points)
            try? FileManager.default.removeItem(atPath: output)
        }
        let rows = try String(contentsOfFile: incidents, encoding: .utf8).split(separator: "\n")
        let kept = rows.dropFirst().filter { row in
            let fields = row.split(separator: ",")
            guard fields.count == 4, let time = TimeParser.parse(String(fields[2]))?.seconds else { return false }
            return window.timeWindow.contains(time) && (kind.map { $0 == fields[3] } ?? true)
        }
        try (["lat,lng,time,kind"] + kept.map(String.init)).joined(separator: "\n").write(
            toFile: points, atomically: true, encoding: .utf8)
        let run = try TestProgram.heatmap(["image", points] + view + options + ["--output", output])
        guard run.status == 0 else {
            Issue.record("still of \(window.label): \(run.standardError)")
            return nil
        }
        var image = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: output))))
        image.drawLabel(window.label)
        return image
    }

    /// M(z) of every point at the test's zoom, as `heatmap info --json` prints it.
    static func allPointsMaximum() throws -> String? {
        let run = try TestProgram.heatmap(["info", incidents, "--zoom", "6", "--json"])
        guard let json = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any],
            let rows = json["normalization"] as? [[String: Any]], let value = rows.first?["value"] as? Double
        else { return nil }
        return "\(value)"
    }

    /// The pixels (of 4 bytes) that differ, or -1 when the sizes differ: short messages, not images.
    static func differing(_ a: RGBAImage?, _ b: RGBAImage) -> Int {
        guard let a, a.width == b.width, a.height == b.height else { return -1 }
        return stride(from: 0, to: a.pixels.count, by: 4).count { a.pixels[$0..<($0 + 4)] != b.pixels[$0..<($0 + 4)] }
    }

    static let plan =
        (try? FramePlan(
            start: 1_709_251_200, end: 1_709_251_200 + 24 * 86400, step: TimeStep(count: 1, unit: .day),
            window: TimeStep(count: 2, unit: .day)))

    @Test("24 frames on a fixed maximum equal the still images of their windows; a PNG reader sees the first")
    func framesEqualStills() throws {
        let plan = try #require(Self.plan)
        let fixed = ["--max-intensity", "2.5"]
        let (frames, file, run) = try Self.frames(Self.animation + fixed)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty, "no progress bar when standard error is no terminal")
        #expect(frames.count == 24)
        #expect(Set(frames.map(\.pixels)).count == 24, "the days differ")
        for (k, window) in plan.enumerated() where k < frames.count {
            let still = try Self.still(window, fixed)
            #expect(Self.differing(still, frames[k]) == 0, "frame \(k), \(window.label)")
        }
        #expect(try frames.first.map { Self.differing(try PNGDecoder.decode(file), $0) } == 0)
        let chunks = try TestAPNG.chunks(file).map(\.type)
        #expect(
            chunks.prefix(4) == ["IHDR", "PLTE", "tRNS", "acTL"], "one shared palette: 160 entries and the label's")
    }

    @Test(
        "Pillow plays the command's 24 frames as PNGDecoder reads them, 500 ms each, looping",
        .enabled(
            if: TestAPNG.pillowPython != nil || ProcessInfo.processInfo.environment["CI_REQUIRE_PILLOW"] != nil,
            "needs Pillow (pip install pillow in a venv; HEATMAP_PILLOW_PYTHON names its python)"))
    func pillowPlaysIt() throws {
        let python = try #require(TestAPNG.pillowPython, "CI_REQUIRE_PILLOW is set but Pillow is missing")
        let output = TestProgram.temporaryPath("anim", "pillow.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let made = try TestProgram.heatmap(Self.animation + ["--output", output])
        try #require(made.status == 0, "\(made.standardError)")
        let frames = try TestAPNG.framePNGs([UInt8](Data(contentsOf: URL(fileURLWithPath: output))))
            .map { try PNGDecoder.decode($0) }
        let read = try TestAPNG.pillowFrames(output, python: python)
        #expect(read.run.status == 0, "\(read.run.standardError)")
        #expect(read.header == "PNG 24 True 0 False")
        #expect(read.frames.count == frames.count)
        for (k, frame) in read.frames.enumerated() where k < frames.count {
            #expect(frame.duration == "500.0", "frame \(k)")
            #expect(frame.pixels.map { $0 == frames[k].pixels } == true, "frame \(k) differs in Pillow")
        }
    }

    @Test("the scale is the largest M(z) of the frames: the brightest frame is its own still image")
    func scaleOfFrames() throws {
        let plan = try #require(Self.plan)
        let (frames, _, run) = try Self.frames(Self.animation)
        #expect(run.status == 0, "\(run.standardError)")
        try #require(frames.count == 24)
        var brightest = 0
        for (k, window) in plan.enumerated() {
            let still = try Self.still(window, [])
            if Self.differing(still, frames[k]) == 0 { brightest += 1 }
        }
        #expect(brightest >= 1, "the frame of the largest M(z) reaches the top colour as its still image does")
        #expect(brightest < 24, "the other frames are drawn on the brightest one's scale, not their own")
    }

    @Test("scale-of=all: every frame on all the points' M(z), a category's frames too")
    func scaleOfAll() throws {
        let plan = try #require(Self.plan)
        let maximum = try #require(try Self.allPointsMaximum())
        let (frames, _, run) = try Self.frames(Self.animation + ["--scale-of", "all", "--category", "kind:theft"])
        #expect(run.status == 0, "\(run.standardError)")
        try #require(frames.count == 24)
        for k in [0, 7, 23] {
            let still = try Self.still(plan[k], ["--max-intensity", maximum], kind: "theft")
            #expect(Self.differing(still, frames[k]) == 0, "frame \(k)")
        }
    }

    @Test(
        "--step, --window and --datetime errors name the value, exit 64 and write nothing",
        arguments: [
            (["--datetime", "2024-03-01/..", "--step", "0d"], "the --step must be positive, not 0d"),
            (
                ["--datetime", "2024-03-01/..", "--step", "1d", "--window", "-7d"],
                "the --window must be positive, not -7d"
            ),
            (["--step", "1y"], "the --step '1y' has no unit of hours, days, weeks or months"),
            (["--window", "7d"], "--window 7d needs --step"),
            (
                ["--datetime", "2000-01-01/2024-01-01", "--step", "1h"],
                "the step 1h makes 210384 frames over 2000-01-01T00:00:00Z/2024-01-01T00:00:00Z, over the limit of 10000"
            ),
            (["--datetime", "2024-03-05/2024-03-01", "--step", "1d"], "\"2024-03-05/2024-03-01\" is reversed"),
            (
                ["--datetime", "2024-03-01/2024-04-01", "--step", "1d", "--category", "kind:arson"],
                "no value \"arson\""
            ),
        ])
    func refused(options: [String], message: String) throws {
        let output = TestProgram.temporaryPath("anim", "anim.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try TestProgram.heatmap(Self.image + options + ["--output", output])
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("--step without --time names what is missing")
    func needsTime() throws {
        let run = try TestProgram.heatmap(
            ["image", Self.incidents] + Self.view + ["--datetime", "2024-03-01/2024-03-05", "--step", "1d"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("give --time COL"), "\(run.standardError)")
    }
}
