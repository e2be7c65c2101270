import Foundation
import HeatmapKit
import Testing

/// The last record is read and validated like every other, in every format, with or without
/// a final newline, LF or CRLF, gzipped or not, wherever it falls against the readers'
/// buffer boundaries (the first read fills 2 MiB, a chunk is 1 MiB), and from standard input.
@Suite struct RecordEndTests {
    static let lineEnds = ["\n", "\r\n"]

    /// Reads `text` as a file, gzipped or not, and checks the count and the last point;
    /// then the same with an invalid last record, which must be the error, at its line.
    func expectLastRecord(
        _ sample: SampleFile, size: Int, gzipped: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let place = "\(sample.format) size \(size) gzip \(gzipped) final newline \(sample.finalNewline)"
        let good = try #require(sample.text(size: size), sourceLocation: sourceLocation)
        #expect(good.text.utf8.count == size, sourceLocation: sourceLocation)
        var bytes = Data(good.text.utf8)
        if gzipped { bytes = try ReaderFiles.gzip(bytes) }
        let path = try ReaderFiles.write(bytes, name: sample.name(gzipped: gzipped))
        defer { ReaderFiles.remove(path) }
        let points = try ReaderFiles.points(path)
        #expect(points.count == good.records, "\(place)", sourceLocation: sourceLocation)
        #expect(points.last?.coordinate.latitude == 3, "\(place)", sourceLocation: sourceLocation)

        let bad = try #require(sample.text(size: size, last: "91"), sourceLocation: sourceLocation)
        bytes = Data(bad.text.utf8)
        if gzipped { bytes = try ReaderFiles.gzip(bytes) }
        let badPath = try ReaderFiles.write(bytes, name: sample.name(gzipped: gzipped))
        defer { ReaderFiles.remove(badPath) }
        let error = ReaderFiles.error(reading: badPath)
        #expect(error?.line == bad.lastLine, "\(place): \(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.reason.contains("latitude \"91\" is out of range") == true, sourceLocation: sourceLocation)
    }

    @Test("small files: LF and CRLF, with and without a final newline, gzipped or not", arguments: PointFormat.allCases)
    func smallFiles(format: PointFormat) throws {
        for lineEnd in Self.lineEnds {
            for finalNewline in [true, false] {
                for gzipped in [false, true] {
                    let sample = SampleFile(format: format, lineEnd: lineEnd, finalNewline: finalNewline)
                    for size in [sample.minimumSize + 1, 200, 3000] {
                        try expectLastRecord(sample, size: size, gzipped: gzipped)
                    }
                }
            }
        }
    }

    @Test(
        "the last record ends just before, at and after a buffer boundary, or straddles it",
        arguments: [1 << 20, 2 << 20])
    func boundaries(boundary: Int) throws {
        for format in PointFormat.allCases {
            for size in [boundary - 1, boundary, boundary + 1, boundary + 600] {
                for finalNewline in [true, false] {
                    let sample = SampleFile(format: format, finalNewline: finalNewline)
                    try expectLastRecord(sample, size: size, gzipped: false)
                    if !finalNewline { try expectLastRecord(sample, size: size, gzipped: true) }
                }
            }
        }
        let crlf = SampleFile(format: .csv, lineEnd: "\r\n", finalNewline: false)
        try expectLastRecord(crlf, size: boundary + 1, gzipped: false)
    }

    @Test("the issue's reproducers: the last row counts, and an invalid last row is an error")
    func reproducers() throws {
        #expect(try PointFileReader.read(path: ReaderFiles.write("lat,lng\n1,2\n3,4")).report.pointsRead == 2)
        #expect(
            try ReaderFiles.message("lat,lng\n1,2\n91,5") == "points.csv:3: latitude \"91\" is out of range -90...90")
        #expect(
            try ReaderFiles.message("lat\tlng\n1\t2\n91\t5", name: "p.tsv")
                == "p.tsv:3: latitude \"91\" is out of range -90...90")
        // A last line of a lone carriage return, or of spaces, is a record too.
        #expect(try PointFileReader.read(path: ReaderFiles.write("lat,lng\r\n1,2\r\n3,4\r")).report.pointsRead == 2)
        #expect(
            try ReaderFiles.message("lat,lng\n1,2\n  ")
                == "points.csv:3: has 1 fields, but the longitude is field 2 (\"lng\")")
        // A quoted last field closes at the end of the file; one left open is an error.
        #expect(try ReaderFiles.points(ReaderFiles.write("lat,lng,name\n1,2,\"a\"\"b\"")).count == 1)
        #expect(
            try ReaderFiles.message("lat,lng,name\n1,2,\"a\n")
                == "points.csv:2: a quoted field is never closed (a missing \")")
    }

    @Test("standard input without a final newline: every format, plain and gzipped, through the command")
    func standardInput() throws {
        let command = ReaderCommandTests()
        for (text, points) in [
            ("lat,lng\n1,2\n3,4", 2), ("lat\tlng\r\n1\t2\r\n3\t4", 2),
            ("{\"lat\": 1, \"lng\": 2}\n{\"lat\": 3, \"lng\": 4}", 2),
            ("[{\"lat\": 1, \"lng\": 2},\r\n{\"lat\": 3, \"lng\": 4}]", 2),
            ("{\"type\": \"MultiPoint\", \"coordinates\": [[2, 1], [4, 3], [6, 5]]}", 3),
        ] {
            for gzipped in [false, true] {
                let bytes = gzipped ? try ReaderFiles.gzip(Data(text.utf8)) : Data(text.utf8)
                let result = try command.run(["info", "-", "--json"], input: bytes)
                #expect(result.status == 0, "\(result.errors)")
                #expect(result.output.contains("\"pointsRead\" : \(points)"), "\(text): \(result.output)")
            }
        }
        let result = try command.run(["info", "-"], input: Data("lat,lng\n1,2\n91,5".utf8))
        #expect(result.status == 1)
        #expect(result.errors == "heatmap: <stdin>:3: latitude \"91\" is out of range -90...90\n")
    }

    @Test("a record longer than 1 MiB is an error wherever it lies, even inside the first read")
    func recordLimit() throws {
        let long = String(repeating: "x", count: (1 << 20) + 10)
        let error = try #require(ReaderFiles.error(reading: ReaderFiles.write("lat,lng,name\n1,2,\(long)\n3,4,x\n")))
        #expect(error.line == 2 && error.reason.contains("longer than 1048576 bytes"), "\(error)")
        let fits = String(repeating: "x", count: (1 << 20) - 10)
        #expect(
            try PointFileReader.read(path: ReaderFiles.write("lat,lng,name\n1,2,\(fits)\n3,4,x")).report.pointsRead == 2
        )
    }
}
