import Foundation
import HeatmapKit
import Testing

@Suite struct StreamPointsTests {
    /// `rows` rows of CSV; the weight of row i is i.
    static func csv(rows: Int, extra: String = "") -> String {
        var text = "lat,lng,weight\n"
        for i in 0..<rows { text += "\(Double(i % 170) * 0.5 - 42),\(Double(i % 350) - 175),\(i)\n" }
        return text + extra
    }

    @Test("streamed chunks, joined, are readPoints' points in order, with its report, in any format")
    func sameAsReadPoints() throws {
        let texts = [
            ("points.csv", Self.csv(rows: 1000)),
            (
                "points.json",
                "["
                    + (0..<700).map { "{\"lat\": \(Double($0) * 0.1), \"lng\": \($0), \"weight\": 2}" }
                    .joined(separator: ",") + "]"
            ),
        ]
        for (name, text) in texts {
            let path = try ReaderFiles.write(text, name: name)
            let whole = try PointFileReader.readPoints(path: path)
            var chunks: [[WeightedLatLng]] = []
            let report = try PointFileReader.readPoints(path: path, chunkSize: 64) { chunks.append($0) }
            #expect(chunks.allSatisfy { $0.count <= 64 && !$0.isEmpty })
            #expect(chunks.dropLast().allSatisfy { $0.count == 64 })
            #expect(chunks.flatMap { $0 } == whole.points)
            #expect(report == whole.report)
        }
    }

    @Test("an invalid row late in the file throws, naming its line, after the chunks before it")
    func lateError() throws {
        let path = try ReaderFiles.write(Self.csv(rows: 1000, extra: "91.5,10,1\n"))
        var received = 0
        #expect(throws: PointFileError(path: path, line: 1002, reason: "latitude \"91.5\" is out of range -90...90")) {
            try PointFileReader.readPoints(path: path, chunkSize: 100) { received += $0.count }
        }
        #expect(received == 1000)
        // Skipped, it is reported, and every valid row is handed over.
        var kept = 0
        let report = try PointFileReader.readPoints(path: path, options: PointReadOptions(skipInvalid: true)) {
            kept += $0.count
        }
        #expect(kept == 1000 && report.pointsRead == 1000 && report.skippedLines == [1002])
    }

    @Test("an error the receiver throws stops the read at once")
    func receiverStops() throws {
        let path = try ReaderFiles.write(Self.csv(rows: 1000))
        let stop = PointFileError(path: path, reason: "stop")
        var calls = 0
        #expect(throws: stop) {
            try PointFileReader.readPoints(path: path, chunkSize: 10) { (_) throws(PointFileError) in
                calls += 1
                if calls == 3 { throw stop }
            }
        }
        #expect(calls == 3)
    }
}
