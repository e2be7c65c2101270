import Foundation
import HeatmapKit
import Testing

extension StreamPointsTests {
    @Test("streamed chunks carry each point's time and categories, in order, in CSV, NDJSON and GeoJSON")
    func fieldsBesidePoints() throws {
        let rows = 300
        let times = (0..<rows).map { Int64(1_704_067_200 + $0 * 3_607) }
        let kinds = (0..<rows).map { ["north", "south", "it's \"quoted\""][$0 % 3] }
        let csv =
            "lat,lng,weight,t,kind\n"
            + (0..<rows).map {
                "\(Double($0) * 0.1),\($0 % 360 - 180),1,\(times[$0]),\"\(kinds[$0].replacing("\"", with: "\"\""))\""
            }
            .joined(separator: "\n")
        func json(_ text: String) -> String { text.replacing("\"", with: "\\\"") }
        let ndjson = (0..<rows).map {
            "{\"lat\": \(Double($0) * 0.1), \"lng\": \($0 % 360 - 180), \"weight\": 1, \"t\": \(times[$0]), \"kind\": \"\(json(kinds[$0]))\"}"
        }.joined(separator: "\n")
        let features = (0..<rows).map {
            "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\($0 % 360 - 180), "
                + "\(Double($0) * 0.1)]}, \"properties\": {\"t\": \(times[$0]), \"kind\": \"\(json(kinds[$0]))\"}}"
        }
        let geojson = "{\"type\": \"FeatureCollection\", \"features\": [" + features.joined(separator: ",") + "]}"
        var options = PointReadOptions()
        options.timeColumn = "t"
        options.categoryColumns = ["kind"]
        for (name, text) in [("p.csv", csv), ("p.ndjson", ndjson), ("p.geojson", geojson)] {
            let path = try ReaderFiles.write(text, name: name)
            var points = 0
            var streamedTimes: [Int64] = []
            var streamedKinds: [String] = []
            let report = try PointFileReader.readPoints(path: path, options: options, chunkSize: 64) {
                (chunk, fields) in
                points += chunk.count
                #expect(fields?.times.count == chunk.count && fields?.categories.first?.count == chunk.count)
                streamedTimes += fields?.times ?? []
                streamedKinds += fields?.categories.first ?? []
            }
            #expect(points == rows, "\(name)")
            #expect(streamedTimes == times, "\(name)")
            #expect(streamedKinds == kinds, "\(name)")
            #expect(report.timeRange == times[0]...times[rows - 1], "\(name)")
        }
        // A bad time names the file, line and column, as a whole read's does.
        let path = try ReaderFiles.write(csv + "\n1,2,1,yesterday,north\n", name: "bad.csv")
        let whole = #expect(throws: PointFileError.self) { try PointFileReader.read(path: path, options: options) }
        let streamed = #expect(throws: PointFileError.self) {
            try PointFileReader.readPoints(path: path, options: options) { (_, _) in }
        }
        #expect(streamed == whole && streamed?.line == rows + 2, "\(String(describing: streamed))")
    }
}
