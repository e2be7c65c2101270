import Foundation
import HeatmapKit
import Testing

/// Bytes after the last complete gzip member that are not another member are an error naming
/// the file and how many bytes follow (zlib's gzread ignored them, so `cat a.csv.gz b.csv`
/// read a's points alone); zero padding to the end is accepted, as gzip accepts it.
@Suite struct GzipTrailingDataTests {
    static func follow(_ count: Int) -> String {
        "\(count) \(count == 1 ? "byte follows" : "bytes follow") the end of the compressed data (not gzip): "
            + "two files joined?"
    }

    /// A CSV file of `rows` points (1,2 …), padded with blank lines to `size` bytes if given.
    static func csv(rows: Int, size: Int? = nil) -> Data {
        var text = "lat,lng\n" + String(repeating: "1,2\n", count: rows)
        if let size { text += String(repeating: "\n", count: max(0, size - text.utf8.count)) }
        return Data(text.utf8)
    }

    /// The CSV file of `size` bytes and how many points it holds.
    static func csv(size: Int) -> (data: Data, points: Int) {
        let rows = (size - 8) / 4
        return (csv(rows: rows, size: size), rows)
    }

    /// `member` with a gzip extra field (FEXTRA) inserted after its header, so that it is
    /// `size` bytes long: a member that ends exactly where a test wants it to.
    static func padded(_ member: Data, to size: Int) throws -> Data {
        let extra = size - member.count - 2
        try #require((0...0xFFFF).contains(extra) && member[member.startIndex + 3] & 0x04 == 0)
        var bytes = Data(member.prefix(10))
        bytes[3] |= 0x04
        bytes += Data([UInt8(extra & 0xFF), UInt8(extra >> 8)]) + Data(repeating: 0x45, count: extra)
        bytes += member.dropFirst(10)
        #expect(bytes.count == size)
        return bytes
    }

    static func points(_ data: Data, name: String = "p.csv.gz") throws -> Int {
        let path = try ReaderFiles.write(data, name: name)
        defer { ReaderFiles.remove(path) }
        return try ReaderFiles.points(path).count
    }

    static func error(_ data: Data, name: String = "p.csv.gz") throws -> PointFileError? {
        let path = try ReaderFiles.write(data, name: name)
        defer { ReaderFiles.remove(path) }
        return ReaderFiles.error(reading: path).map { PointFileError(path: "p", reason: $0.reason) }
    }

    @Test("the issue's reproducer: a gzipped CSV with a plain one appended, through info, tile and standard input")
    func memberThenPlainFile() throws {
        let a = try ReaderFiles.gzip(Self.csv(rows: 2))
        let b = Self.csv(rows: 3)
        let path = try ReaderFiles.write(a + b, name: "c.csv.gz")
        defer { ReaderFiles.remove(path) }
        #expect(ReaderFiles.error(reading: path) == PointFileError(path: path, reason: Self.follow(b.count)))
        let command = ReaderCommandTests()
        let output = path + ".png"
        for arguments in [["info", path], ["tile", path, "0/0/0", "--output", output]] {
            let result = try command.run(arguments)
            #expect(result.status == 1 && result.output.isEmpty)
            #expect(result.errors == "heatmap: \(path): \(Self.follow(b.count))\n")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        let piped = try command.run(["info", "-"], input: a + b)
        #expect(piped.status == 1 && piped.output.isEmpty)
        #expect(piped.errors == "heatmap: <stdin>: \(Self.follow(b.count))\n")
        // The rows joined as a second gzip member read whole.
        let rows = try ReaderFiles.gzip(Data("5,6\n7,8\n9,10\n".utf8))
        let joined = try command.run(["info", "-"], input: a + rows)
        #expect(joined.status == 0 && joined.output.contains("(csv): 5 points read, 0 skipped"), "\(joined.errors)")
    }

    @Test("garbage after one member and after two, counted to the end of the file", arguments: [1, 2])
    func garbageAfterMembers(members: Int) throws {
        var data = try ReaderFiles.gzip(Self.csv(rows: 10))
        if members == 2 { data += try ReaderFiles.gzip(Data("3,4\n".utf8)) }
        #expect(try Self.points(data) == 9 + members)
        for garbage in ["x", "xy", "garbage\n", String(repeating: "5,6\n", count: 1000)] {
            let error = try Self.error(data + Data(garbage.utf8))
            #expect(error?.reason == Self.follow(garbage.utf8.count), "\(garbage.prefix(10))")
        }
        // Standard input counts the same bytes.
        let piped = try ReaderCommandTests().run(["info", "-"], input: data + Data("garbage\n".utf8))
        #expect(piped.status == 1 && piped.errors == "heatmap: <stdin>: \(Self.follow(8))\n")
    }

    @Test("zero padding to the end is accepted; zeros then other bytes are garbage from the first zero")
    func trailingZeros() throws {
        let data = try ReaderFiles.gzip(Self.csv(rows: 10))
        for zeros in [1, 2, 512, 300_000] {
            #expect(try Self.points(data + Data(count: zeros)) == 10, "\(zeros) zeros")
        }
        let piped = try ReaderCommandTests().run(["info", "-"], input: data + Data(count: 10_000))
        #expect(piped.status == 0 && piped.output.contains("10 points read"), "\(piped.errors)")
        let mixed = data + Data(count: 300) + Data("x".utf8) + Data(count: 200_000)
        #expect(try Self.error(mixed)?.reason == Self.follow(200_301))
        // Zeros before another member are not padding either.
        let member = try ReaderFiles.gzip(Data("3,4\n".utf8))
        #expect(try Self.error(data + Data(count: 4) + member)?.reason == Self.follow(4 + member.count))
    }

    @Test("garbage that starts like gzip: one 1f byte, 1f then other bytes, 1f 8b then a bad header")
    func gzipLookalikes() throws {
        let data = try ReaderFiles.gzip(Self.csv(rows: 10))
        #expect(try Self.error(data + Data([0x1F]))?.reason == Self.follow(1))
        #expect(try Self.error(data + Data([0x1F, 0x41, 0x42]))?.reason == Self.follow(3))
        #expect(try Self.error(data + Data([0x1F, 0x8B]))?.reason == GzipStreamTests.truncated)
        let reason = try #require(try Self.error(data + Data([0x1F, 0x8B, 0x41, 0, 0, 0, 0, 0, 0, 3, 1]))?.reason)
        #expect(reason.hasPrefix("cannot be read: ") && reason.hasSuffix(" (a corrupt gzip file?)"))
        let piped = try ReaderCommandTests().run(["info", "-"], input: data + Data([0x1F]))
        #expect(piped.status == 1 && piped.errors == "heatmap: <stdin>: \(Self.follow(1))\n")
    }

    @Test(
        "members whose inflated data ends at, before and after the 1 MiB and 2 MiB chunk boundaries",
        arguments: [1 << 20, 2 << 20])
    func chunkBoundaries(boundary: Int) throws {
        let second = try ReaderFiles.gzip(Data("3,4\n".utf8))
        for size in (boundary - 1)...(boundary + 1) {
            let (text, points) = Self.csv(size: size)
            let member = try ReaderFiles.gzip(text)
            #expect(try Self.points(member + second + Data(count: 3)) == points + 1, "\(size)")
            #expect(try Self.error(member + Data("5,6\n".utf8))?.reason == Self.follow(4), "\(size)")
        }
        let (text, _) = Self.csv(size: boundary)
        let piped = try ReaderCommandTests().run(["info", "-"], input: try ReaderFiles.gzip(text) + Data("5,6\n".utf8))
        #expect(piped.status == 1 && piped.errors == "heatmap: <stdin>: \(Self.follow(4))\n")
    }

    @Test("a member whose compressed bytes end at, before and after a read of 128 KiB")
    func readBoundaries() throws {
        let read = 1 << 17
        let first = try Self.padded(ReaderFiles.gzip(Self.csv(rows: 100)), to: read / 2)
        for end in (read - 2)...(read + 1) {
            let data = try first + Self.padded(ReaderFiles.gzip(Data("3,4\n".utf8)), to: end - read / 2)
            #expect(data.count == end)
            #expect(try Self.points(data) == 101, "\(end)")
            #expect(try Self.points(data + data.dropFirst(read / 2)) == 102, "\(end)")
            #expect(try Self.points(data + Data(count: 2)) == 101, "\(end)")
            #expect(try Self.error(data + Data([0x1F]))?.reason == Self.follow(1), "\(end)")
            #expect(try Self.error(data + Data("lat,lng\n5,6\n".utf8))?.reason == Self.follow(12), "\(end)")
            let piped = try ReaderCommandTests().run(["info", "-"], input: data + Data([0x1F, 0x41]))
            #expect(piped.status == 1 && piped.errors == "heatmap: <stdin>: \(Self.follow(2))\n", "\(end)")
        }
    }
}
