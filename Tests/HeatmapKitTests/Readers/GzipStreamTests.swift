import Foundation
import HeatmapKit
import Testing

/// A gzip stream must reach its end: one cut short, in its data or before its 8-byte CRC32
/// and size trailer, is an error and nothing is read from it; several members one after
/// another are one stream (as gzip allows); a wrong CRC is reported.
@Suite struct GzipStreamTests {
    static let truncated = "the compressed data ends early: truncated file?"

    /// 2,000 CSV rows, gzipped, and their text.
    static func rows(_ count: Int = 2000) -> String {
        "lat,lng,weight\n" + (0..<count).map { "\(Double($0 % 170) - 85),\($0 % 360 - 180),\($0 % 7)\n" }.joined()
    }

    @Test(
        "cut anywhere in the data or the trailer: an error naming the file, for every format",
        arguments: PointFormat.allCases)
    func truncations(format: PointFormat) throws {
        let sample = SampleFile(format: format)
        let text = try #require(sample.text(size: 40_000))
        let whole = try ReaderFiles.gzip(Data(text.text.utf8))
        let name = sample.name(gzipped: true)
        #expect(try ReaderFiles.points(ReaderFiles.write(whole, name: name)).count == text.records)
        // Every cut from just after the 10-byte header to one byte short of the end,
        // including each of the last 8 bytes (the trailer).
        let cuts = Set(stride(from: 10, to: whole.count, by: max(1, whole.count / 40)))
            .union((whole.count - 12)..<whole.count)
        for cut in cuts.sorted() {
            let path = try ReaderFiles.write(whole.prefix(cut), name: name)
            defer { ReaderFiles.remove(path) }
            let error = ReaderFiles.error(reading: path)
            #expect(error == PointFileError(path: path, reason: Self.truncated), "cut at \(cut) of \(whole.count)")
        }
    }

    @Test("the issue's reproducers: half of a 2,000-row file, and one without only its trailer")
    func reproducers() throws {
        let whole = try ReaderFiles.gzip(Data(Self.rows().utf8))
        for part in [whole.prefix(whole.count / 2), whole.prefix(whole.count - 8)] {
            let path = try ReaderFiles.write(part, name: "p.csv.gz")
            let error = try #require(ReaderFiles.error(reading: path))
            #expect(error.description == "\(path): \(Self.truncated)")
        }
        let command = ReaderCommandTests()
        let path = try ReaderFiles.write(whole.prefix(whole.count / 2), name: "p.csv.gz")
        let output = path + ".png"
        for arguments in [["info", path], ["tile", path, "0/0/0", "--output", output]] {
            let result = try command.run(arguments)
            #expect(result.status == 1 && result.output.isEmpty)
            #expect(result.errors == "heatmap: \(path): \(Self.truncated)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        // Standard input cut short too.
        let piped = try command.run(["info", "-"], input: whole.prefix(whole.count - 8))
        #expect(piped.status == 1 && piped.errors == "heatmap: <stdin>: \(Self.truncated)\n")
    }

    @Test("members one after another read as one stream, the last record included")
    func concatenatedMembers() throws {
        let text = Self.rows(30)
        let split = text.index(text.startIndex, offsetBy: text.count / 2)
        var bytes = try ReaderFiles.gzip(Data(text[..<split].utf8))
        bytes += try ReaderFiles.gzip(Data(text[split...].utf8))
        bytes += try ReaderFiles.gzip(Data("90,0,1".utf8))
        let points = try ReaderFiles.points(ReaderFiles.write(bytes, name: "p.csv.gz"))
        #expect(points.count == 31 && points.last?.coordinate.latitude == 90)
        // A member cut short after a whole one is still an error.
        let first = try ReaderFiles.gzip(Data(text.utf8))
        let second = try ReaderFiles.gzip(Data(String(repeating: "1,2,3\n", count: 50).utf8))
        let path = try ReaderFiles.write(first + second.prefix(second.count - 3), name: "p.csv.gz")
        #expect(ReaderFiles.error(reading: path)?.reason == Self.truncated)
    }

    @Test("a wrong CRC32 or size in the trailer, or corrupt data, is reported as corrupt")
    func corruption() throws {
        let whole = try ReaderFiles.gzip(Data(Self.rows().utf8))
        for (offset, what) in [(whole.count - 6, "incorrect data check"), (whole.count - 2, "incorrect length check")] {
            var bytes = whole
            bytes[offset] ^= 0x5A
            let path = try ReaderFiles.write(bytes, name: "p.csv.gz")
            let error = ReaderFiles.error(reading: path)
            #expect(error == PointFileError(path: path, reason: "cannot be read: \(what) (a corrupt gzip file?)"))
        }
        // Corrupt data: an error of some kind (which depends on where inflating fails).
        var bytes = whole
        bytes[20] ^= 0xFF
        let path = try ReaderFiles.write(bytes, name: "p.csv.gz")
        #expect(ReaderFiles.error(reading: path)?.path == path)
    }
}
