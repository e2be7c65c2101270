import Foundation
import Testing

/// `tile` and `image` when the output cannot be written whole (a full disk): an error naming
/// the place, exit 1, never a trap and never a cut-off PNG left where a whole one was.
///
/// A full disk is made without mounting anything: the shell lowers the file size limit
/// (`ulimit -f`, 512-byte blocks) and ignores SIGXFSZ, so a write past it fails with EFBIG as
/// it would with ENOSPC.
@Suite struct OutputFailureTests {
    let commands = TileCommandTests()

    /// Runs `heatmap ARGUMENTS` under a 1 KiB file size limit, standard output to `output`.
    func runLimited(_ arguments: [String], standardOutput output: String) throws -> TileCommandTests.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let quoted = ([TileCommandTests.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 2; exec \(quoted) > '\(output)'"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return TileCommandTests.Run(status: process.terminationStatus, standardError: text)
    }

    func arguments(_ command: String) -> [String] {
        let data = Fixtures.path("police_stations.json")
        return command == "tile"
            ? ["tile", data, "6/57/39@2x"]
            : ["image", data, "--center", "-37.8,145", "--zoom", "6", "--size", "300x300", "--scale", "2"]
    }

    @Test("a failed write to standard output is an error, not a trap", arguments: ["tile", "image"])
    func standardOutput(command: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = commands.temporaryPath("stdout.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try runLimited(arguments(command), standardOutput: output)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("standard output"), "\(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"), "\(result.standardError)")
    }

    @Test("an error whose message cannot be written still exits 1, not a trap")
    func standardError() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = commands.temporaryPath("stderr.txt")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let missing = commands.temporaryPath("missing.csv")
        process.arguments = [
            "-c",
            "trap '' XFSZ; ulimit -f 0; exec '\(TileCommandTests.executable.path)' info '\(missing)' 2> '\(output)'",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
    }

    @Test("info whose standard output cannot be written fails, naming it")
    func info() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = commands.temporaryPath("info.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let arguments = ["info", Fixtures.path("police_stations.json"), "--json", "--zoom", "0,1,2,3,4,5,6,7,8,9,10"]
        let result = try runLimited(arguments, standardOutput: output)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("standard output"), "\(result.standardError)")
    }

    @Test("a failed --output keeps the old file and leaves no part", arguments: ["tile", "image"])
    func outputFile(command: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let folder = commands.temporaryPath("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/tile.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let log = commands.temporaryPath("stdout.txt")
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try runLimited(arguments(command) + ["--output", output], standardOutput: log)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains(output), "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: output) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tile.png"])
    }

    /// What `OutputInPlaceTests` checked with a hard link, now that regular files are replaced by a
    /// rename: a path that is not a regular file (a device such as /dev/null, a FIFO) is written in
    /// place, never renamed over. A FIFO stands in for the device, which tests never touch.
    @Test("a FIFO given as --output is written in place, not renamed over")
    func fifo() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let fifo = commands.temporaryPath("out.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let read = Pipe()
        reader.standardOutput = read
        try reader.run()
        let result = try commands.run(arguments("tile") + ["--output", fifo])
        let bytes = read.fileHandleForReading.readDataToEndOfFile()
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        var status = stat()
        #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
    }
}
