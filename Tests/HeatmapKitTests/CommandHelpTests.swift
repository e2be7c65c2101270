import Foundation
import Testing

/// `heatmap COMMAND --help` (or `-h`), as a new user first types it: the command's usage on
/// standard output and exit 0, not "unknown option --help".
@Suite struct CommandHelpTests {
    @Test(
        "every command answers --help and -h with its usage",
        arguments: ["tile", "image", "info", "render", "serve", "import"], ["--help", "-h"])
    func help(command: String, flag: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let process = Process()
        process.executableURL = TileCommandTests.executable
        process.arguments = [command, "points.csv", flag]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errorText)")
        #expect(text.contains("usage: heatmap \(command)"), "\(text)")
    }
}
