import Foundation
import HeatmapCore
import HeatmapKit

/// One measurement of reading a generated points file.
struct ReaderMeasurement: Codable, Sendable {
    /// The rows of points in the file.
    var rows: Int
    /// The file's format, e.g. "csv".
    var format: String
    /// The file's size in bytes.
    var bytes: Int
    /// Seconds to read, validate and index the file.
    var seconds: Double
    /// Rows read a second.
    var rowsPerSecond: Double
    /// The process's peak resident memory during the read, less its resident memory before
    /// (Linux only: 0 elsewhere).
    var peakMemoryBytes: Int
    /// `peakMemoryBytes / rows`.
    var bytesPerPoint: Double
}

/// Measures ``PointFileReader`` on generated CSV files: `lat,lng,weight,name`, a tenth of
/// the names quoted with a comma inside, from a seed, written to a temporary folder and
/// removed afterwards.
///
/// Peak memory is Linux's: the peak-RSS counter is reset by writing "5" to
/// /proc/self/clear_refs and read back as VmHWM from /proc/self/status; elsewhere it is 0.
enum ReaderBenchmark {
    static func run(rowCounts: [Int], seed: UInt64) throws -> [ReaderMeasurement] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var measurements: [ReaderMeasurement] = []
        for rows in rowCounts {
            let path = folder.appendingPathComponent("points-\(rows).csv").path
            let bytes = try writeCSV(rows: rows, seed: seed, to: path)
            Measure.resetPeak()
            let before = Measure.residentBytes
            var read = 0
            let seconds = try Measure.seconds { read = try PointFileReader.read(path: path).report.pointsRead }
            let peak = before > 0 ? max(0, Measure.peakBytes - before) : 0
            guard read == rows else { throw CocoaError(.fileReadCorruptFile) }
            measurements.append(
                ReaderMeasurement(
                    rows: rows, format: "csv", bytes: bytes, seconds: seconds,
                    rowsPerSecond: Double(rows) / max(seconds, 1e-9), peakMemoryBytes: peak,
                    bytesPerPoint: Double(peak) / Double(max(rows, 1))))
            try? FileManager.default.removeItem(atPath: path)
        }
        return measurements
    }

    /// Writes `rows` random rows and returns the file's size.
    static func writeCSV(rows: Int, seed: UInt64, to path: String) throws -> Int {
        guard let file = fopen(path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        var rng = SplitMix64(seed: seed)
        var buffer: [UInt8] = Array("lat,lng,weight,name\n".utf8)
        buffer.reserveCapacity(1 << 20)
        var total = 0
        for row in 0..<rows {
            append(fixed: Int.random(in: -6_000_000...7_000_000, using: &rng), to: &buffer)
            buffer.append(UInt8(ascii: ","))
            append(fixed: Int.random(in: -18_000_000...18_000_000, using: &rng), to: &buffer)
            buffer.append(UInt8(ascii: ","))
            append(fixed: Int.random(in: 0...10_000_000, using: &rng), to: &buffer)
            buffer.append(
                contentsOf: row % 10 == 0 ? Array(",\"Town, \"\"\(row % 97)\"\"\"\n".utf8) : Array(",Town\n".utf8))
            if buffer.count >= 1 << 20 {
                total += fwrite(buffer, 1, buffer.count, file)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        total += fwrite(buffer, 1, buffer.count, file)
        return total
    }

    /// Appends `value / 100000` with five decimals.
    private static func append(fixed value: Int, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        buffer.append(contentsOf: String(magnitude / 100_000).utf8)
        buffer.append(UInt8(ascii: "."))
        var fraction = magnitude % 100_000
        var digits = [UInt8](repeating: 48, count: 5)
        for i in stride(from: 4, through: 0, by: -1) {
            digits[i] = 48 + UInt8(fraction % 10)
            fraction /= 10
        }
        buffer.append(contentsOf: digits)
    }
}
