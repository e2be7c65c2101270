import Foundation
import HeatmapKit

/// One measurement of reading a file of awkward records.
struct ReaderShapeMeasurement: Codable, Sendable {
    /// What each record holds, e.g. "one quoted field of 500,000 \"\" escapes".
    var shape: String
    /// The file's format, e.g. "csv".
    var format: String
    /// The records (and points) in the file.
    var records: Int
    /// The file's size in bytes.
    var bytes: Int
    /// Seconds to read it (the median of the repetitions).
    var seconds: Double
    /// Megabytes read a second.
    var megabytesPerSecond: Double
}

/// Reads files of records that each hold about 1 MB in one field, plain or full of quotes
/// and escapes, so that a reader that is not linear in its bytes shows it: the quoted shapes
/// should read as fast as the plain one (before the CSV scan was made single-pass, a field of
/// `""` escapes took 2.4 s a megabyte against 0.01 s for a plain one).
enum ReaderShapeBenchmark {
    static let shapes: [(shape: String, format: String, field: String)] = [
        ("a plain 1 MB field", "csv", String(repeating: "x", count: 1_000_000)),
        ("one quoted field of 500,000 \"\" escapes", "csv", "\"" + String(repeating: "\"\"", count: 500_000) + "\""),
        ("500,000 stray quotes in an unquoted field", "csv", String(repeating: "a\"", count: 500_000)),
        ("250,000 quoted fields", "csv", String(repeating: "\"a\",", count: 250_000) + "x"),
        ("a JSON string of 500,000 \\\" escapes", "json", String(repeating: "\\\"", count: 500_000)),
    ]

    static func run(records: Int, repetitions: Int) throws -> [ReaderShapeMeasurement] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var measurements: [ReaderShapeMeasurement] = []
        for (shape, format, field) in shapes {
            let text =
                format == "csv"
                ? "lat,lng,name\n" + String(repeating: "1,2,\(field)\n", count: records)
                : "["
                    + Array(repeating: "{\"lat\": 1, \"lng\": 2, \"name\": \"\(field)\"}", count: records)
                    .joined(separator: ",\n") + "]\n"
            let path = folder.appendingPathComponent("shape.\(format)").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            var times: [Double] = []
            for _ in 0..<max(1, repetitions) {
                var read = 0
                times.append(try Measure.seconds { read = try PointFileReader.read(path: path).report.pointsRead })
                guard read == records else { throw CocoaError(.fileReadCorruptFile) }
            }
            let seconds = Measure.median(times)
            measurements.append(
                ReaderShapeMeasurement(
                    shape: shape, format: format, records: records, bytes: text.utf8.count, seconds: seconds,
                    megabytesPerSecond: Double(text.utf8.count) / 1e6 / max(seconds, 1e-9)))
        }
        return measurements
    }
}
