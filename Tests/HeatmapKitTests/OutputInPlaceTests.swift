import Foundation
import Testing

/// `tile` and `image` write `--output` in place: a rename over the path (as
/// `FileManager.createFile` does) would, run as root, replace `--output /dev/null` with a
/// regular file. Checked without touching a device: a hard link to the output still sees
/// what was written, which holds only when the file keeps its inode.
@Suite struct OutputInPlaceTests {
    @Test("tile and image keep the output's inode", arguments: ["tile", "image"])
    func inPlace(command: String) throws {
        let commands = TileCommandTests()
        try #require(FileManager.default.isExecutableFile(atPath: TileCommandTests.executable.path))
        let output = commands.temporaryPath("out.png")
        let link = output + ".link"
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: link)
        }
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        try FileManager.default.linkItem(atPath: output, toPath: link)
        let data = Fixtures.path("police_stations.json")
        let arguments =
            command == "tile"
            ? ["tile", data, "6/57/39", "--output", output]
            : ["image", data, "--center", "-37.8,145", "--zoom", "6", "--size", "64x64", "--output", output]
        let result = try commands.run(arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let written = try #require(FileManager.default.contents(atPath: output))
        #expect(written.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(FileManager.default.contents(atPath: link) == written)
    }
}
