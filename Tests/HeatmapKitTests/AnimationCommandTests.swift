import Foundation
import HeatmapTestSupport
import Testing

/// `heatmap image`'s `--step` and `--window`: bad values are usage errors naming the option and
/// the text; a good step is refused, saying the time filter is missing, and nothing is written.
@Suite struct AnimationCommandTests {
    static let image = [
        "image", Fixtures.path("police_stations.json"), "--center", "-37.8,145", "--zoom", "6", "--size", "64x64",
    ]

    @Test(
        "--step and --window errors name the option and value; a step is refused until --datetime exists",
        arguments: [
            (["--step", "0d"], "the --step must be positive, not 0d"),
            (["--step", "1d", "--window", "-7d"], "the --window must be positive, not -7d"),
            (["--step", "1y"], "the --step '1y' has no unit of hours, days, weeks or months"),
            (["--window", "7d"], "--window 7d needs --step"),
            (
                ["--step", "1d", "--window", "7d"],
                "--step 1d animates over --datetime START/END, and this build has no"
            ),
            (["--step", "1mo"], "--step 1mo animates over --datetime START/END"),
        ])
    func refused(options: [String], message: String) throws {
        let output = TestProgram.temporaryPath("anim", "anim.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try TestProgram.heatmap(Self.image + options + ["--output", output])
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
