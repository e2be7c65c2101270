import Foundation
import Testing

/// `tile --output FILE` and `image --output FILE` write `FILE.partial-PID` first: a command
/// stopped by SIGINT or SIGTERM meanwhile removes it, and a later write removes those of
/// processes that died (SIGKILL) meanwhile. The old FILE stays as it was.
@Suite struct OutputPartialTests {
    let commands = TileCommandTests()

    func arguments(_ command: String, output: String) -> [String] {
        let data = Fixtures.path("police_stations.json")
        return
            (command == "tile"
            ? ["tile", data, "6/57/39@2x"]
            : ["image", data, "--center", "-37.8,145", "--zoom", "6", "--size", "300x300"]) + ["--output", output]
    }

    @Test(
        "a signal while the partial file exists removes it, and the command dies of the signal",
        arguments: [("tile", SIGINT), ("tile", SIGTERM), ("image", SIGTERM), ("image", SIGINT)])
    func signalled(command: String, number: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = commands.temporaryPath("signalled.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = TileCommandTests.executable
        process.arguments = arguments(command, output: output)
        // The command holds its partial file open this long before the rename (a test seam).
        process.environment = ProcessInfo.processInfo.environment.merging(["HEATMAP_TEST_HOLD_PARTIAL": "20"]) {
            $1
        }
        try process.run()
        let partial = "\(output).partial-\(process.processIdentifier)"
        var appeared = false
        for _ in 0..<600 where !appeared {
            appeared = FileManager.default.fileExists(atPath: partial)
            if !appeared { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(appeared, "the partial file never appeared")
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == number)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("old".utf8))
    }

    @Test("the partial files of dead processes are removed by the next write; a live process's stay")
    func stale() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = commands.temporaryPath("stale.png")
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = "\(output).partial-\(finished.processIdentifier)"
        let live = "\(output).partial-\(getpid())"
        let other = "\(output).partial-notapid"
        for path in [dead, live, other] { try Data("cut off".utf8).write(to: URL(fileURLWithPath: path)) }
        defer { for path in [output, dead, live, other] { try? FileManager.default.removeItem(atPath: path) } }
        let run = try TileCommandTests().run(arguments("tile", output: output))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
