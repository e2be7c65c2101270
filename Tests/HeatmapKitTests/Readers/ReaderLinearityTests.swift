import Foundation
import Testing

@testable import HeatmapKit

/// The CSV/TSV scan is linear in the bytes whatever they hold: the parser counts the bytes
/// it examines and the input counts the bytes it copies, and both stay within a small
/// multiple of the file's size for the shapes that were quadratic (a field of `""` escapes,
/// stray quotes, many quoted fields) and the others (long lines, many fields, many short
/// records, blank lines, a BOM). Counting work, not time, keeps the test exact and untimed.
@Suite struct ReaderLinearityTests {
    /// About 1 MB of each shape, as one record or many.
    static let shapes: [(name: String, text: String)] = [
        (
            "one field of 500,000 \"\" escapes",
            "lat,lng,name\n1,2,\"" + String(repeating: "\"\"", count: 500_000) + "\"\n"
        ),
        ("stray quotes in an unquoted field", "lat,lng,name\n1,2," + String(repeating: "a\"", count: 500_000) + "\n"),
        ("250,000 quoted fields", "lat,lng,name\n1,2," + String(repeating: "\"a\",", count: 250_000) + "x\n"),
        ("quoted newlines", "lat,lng,name\n1,2,\"" + String(repeating: "\n\"\"", count: 300_000) + "\"\n"),
        ("a plain 1 MB field", "lat,lng,name\n1,2," + String(repeating: "x", count: 1_000_000) + "\n"),
        ("500,000 empty fields", "lat,lng,name\n1,2" + String(repeating: ",", count: 500_000) + "\n"),
        ("200,000 short records", "lat,lng\n" + String(repeating: "1,2\n", count: 200_000)),
        ("blank lines", "\u{FEFF}lat,lng\n" + String(repeating: "\r\n\n", count: 300_000) + "1,2"),
        ("quoted records", "lat,lng,name\n" + String(repeating: "\"1\",\"2\",\"a\"\"b\"\r\n", count: 50_000)),
    ]

    /// The bytes examined and the bytes copied reading `text` as CSV (or TSV).
    func work(_ text: String, delimiter: UInt8 = 44) throws -> (examined: Int, moved: Int, read: Int, points: Int) {
        let path = try ReaderFiles.write(text)
        defer { ReaderFiles.remove(path) }
        let input = try ByteInput(path: path)
        var parser = CSVPointParser(input: input, options: .init(), delimiter: delimiter)
        var collector = PointCollector(path: path, skipInvalid: true)
        try parser.read(into: &collector)
        return (parser.bytesExamined, input.bytesMoved, input.bytesRead, collector.statistics.count)
    }

    @Test("bytes examined stay within 3 times the file's size for every shape", arguments: 0..<shapes.count)
    func examined(shape: Int) throws {
        let (name, text) = Self.shapes[shape]
        let size = text.utf8.count
        let measured = try work(text)
        #expect(measured.read == size, "\(name)")
        #expect(measured.examined <= 3 * size, "\(name): \(measured.examined) bytes examined for \(size)")
        #expect(measured.points > 0, "\(name)")
    }

    @Test("the same with tabs: a field of 500,000 escapes in TSV")
    func tsv() throws {
        let text = "lat\tlng\tname\n1\t2\t\"" + String(repeating: "\"\"", count: 500_000) + "\"\n"
        let measured = try work(text, delimiter: 9)
        #expect(measured.examined <= 3 * text.utf8.count && measured.points == 1)
    }

    @Test("work grows in proportion: doubling the escapes doubles the bytes examined")
    func proportional() throws {
        let counts = [50_000, 100_000, 200_000, 400_000]
        let examined = try counts.map {
            try work("lat,lng,name\n1,2,\"" + String(repeating: "\"\"", count: $0) + "\"\n").examined
        }
        for (small, large) in zip(examined, examined.dropFirst()) {
            #expect(Double(large) / Double(small) < 2.1, "\(examined)")
        }
    }

    @Test("records near 1 MiB across many refills: copies stay within the bytes read plus two buffers")
    func copies() throws {
        let record = "1,2," + String(repeating: "y", count: 900_000) + "\n"
        let text = "lat,lng,name\n" + String(repeating: record, count: 12)
        let measured = try work(text)
        #expect(measured.points == 12 && measured.read == text.utf8.count)
        #expect(measured.moved <= measured.read + 2 * ByteInput.maximumKept, "\(measured)")
        #expect(measured.examined <= 3 * text.utf8.count)
    }
}
