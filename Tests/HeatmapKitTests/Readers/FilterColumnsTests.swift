import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// `--time` and `--categories` in every reader: what is read, the filtered tiles it draws, and
/// the errors that name the place.
@Suite struct FilterColumnsTests {
    struct Row {
        var latitude: Double
        var longitude: Double
        var weight: Int
        var time: Int64
        var kind: String
    }

    static let kinds = ["theft", "burglary", "assault, armed", "fraud"]

    static func rows(count: Int, seed: UInt64) -> [Row] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let near = Bool.random(using: &random)
            return Row(
                latitude: ((near ? -37.81 : 51.5) + Double(Int.random(in: -5000...5000, using: &random)) / 100_000),
                longitude: ((near ? 144.96 : -0.12) + Double(Int.random(in: -5000...5000, using: &random)) / 100_000),
                weight: Int.random(in: 0...3, using: &random),
                time: 1_704_067_200 + Int64.random(in: 0..<(366 * 86_400), using: &random),
                kind: kinds[Int.random(in: 0..<kinds.count, using: &random)])
        }
    }

    /// The same rows in each format; times as ISO 8601 with an offset (CSV, TSV), Unix seconds
    /// (NDJSON), and UTC date-times (GeoJSON).
    static func files(_ rows: [Row]) throws -> [(String, PointReadOptions)] {
        func iso(_ t: Int64, offsetHours: Int) -> String {
            // The local time at the offset, then the offset.
            let local = TimeParser.format(t + Int64(offsetHours * 3600)).dropLast()
            return local + (offsetHours >= 0 ? "+" : "-") + String(format: "%02d:00", abs(offsetHours))
        }
        let csv =
            "lat,lng,weight,when,kind\n"
            + rows.enumerated().map { i, r in
                "\(r.latitude),\(r.longitude),\(r.weight),\(iso(r.time, offsetHours: i % 5 - 2)),\"\(r.kind)\""
            }.joined(separator: "\n")
        let tsv =
            "lat\tlng\tweight\twhen\tkind\n"
            + rows.map { "\($0.latitude)\t\($0.longitude)\t\($0.weight)\t\(TimeParser.format($0.time))\t\($0.kind)" }
            .joined(separator: "\n")
        let ndjson = rows.map {
            "{\"lat\":\($0.latitude),\"lng\":\($0.longitude),\"weight\":\($0.weight),\"when\":\($0.time),\"kind\":\"\($0.kind)\"}"
        }.joined(separator: "\n")
        let geojson =
            "{\"type\":\"FeatureCollection\",\"features\":["
            + rows.map {
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\($0.longitude),\($0.latitude)]},"
                    + "\"properties\":{\"weight\":\($0.weight),\"when\":\"\(TimeParser.format($0.time))\",\"kind\":\"\($0.kind)\"}}"
            }.joined(separator: ",") + "]}"
        var options = PointReadOptions()
        options.timeColumn = "when"
        options.categoryColumns = ["kind"]
        return [
            (try ReaderFiles.write(csv, name: "points.csv"), options),
            (try ReaderFiles.write(tsv, name: "points.tsv"), options),
            (try ReaderFiles.write(ndjson, name: "points.ndjson"), options),
            (try ReaderFiles.write(geojson, name: "points.geojson"), options),
        ]
    }

    @Test("every format reads the times and categories, and a filtered tile equals brute force")
    func filteredTiles() throws {
        let rows = Self.rows(count: 400, seed: 28)
        let window = try TimeWindow(parsing: "2024-03-01/2024-09-01")
        let selection = try CategorySelection(parsing: "kind:theft,assault%2C%20armed", percentEncoded: true)
        let kept = rows.filter { window.contains($0.time) && selection.values.contains($0.kind) }.map {
            WeightedLatLng(
                coordinate: Coordinate(latitude: $0.latitude, longitude: $0.longitude), intensity: Double($0.weight))
        }
        #expect(kept.count > 50)
        for (path, options) in try Self.files(rows) {
            let file = try PointFileReader.read(path: path, options: options)
            let filters = try #require(file.filters, "\(path)")
            #expect(filters.count == rows.count)
            #expect(file.report.timeRange == rows.map(\.time).min()!...rows.map(\.time).max()!, "\(path)")
            let counts = Dictionary(grouping: rows, by: \.kind).mapValues(\.count)
            let dictionary = try #require(file.report.categories.first)
            for (value, count) in counts { #expect(dictionary.counts[Int(dictionary.code(of: value)!)] == count) }
            let filter = try PointFilter(window: window, categories: [selection], dictionaries: filters.dictionaries)
            let source = filters.filtered(by: filter)
            for zoom in [3, 9, 14] {
                let space = try PixelSpace(zoom: zoom, scale: 1)
                let (px, py) = space.pixel(of: kept[0].coordinate)
                let rect = PixelRect(tileX: px / space.tileSize, y: py / space.tileSize, in: space)
                let grid = source.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20))
                let reference = ReferenceRenderer.intensity(of: kept, in: rect, space: space, radius: 20)
                let top = reference.max() ?? 0
                let worst = zip(grid.values, reference).map { abs(Double($0) - $1) }.max() ?? 0
                #expect(top > 0 && worst <= 1e-5 * top, "\(path) zoom \(zoom): off by \(worst) of \(top)")
            }
        }
    }

    @Test("gzip and standard input read the columns too")
    func gzip() throws {
        let rows = Self.rows(count: 50, seed: 3)
        let (path, options) = try Self.files(rows)[0]
        let task = Process()
        task.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        task.arguments = ["gzip", "-kf", path]
        try task.run()
        task.waitUntilExit()
        let file = try PointFileReader.read(path: path + ".gz", options: options)
        #expect(file.filters?.count == 50)
        #expect(file.report.categories.first?.values.count ?? 0 > 1)
    }

    @Test(
        "bad times and categories name the file, line and column",
        arguments: [
            (
                "lat,lng,t,k\n1,2,1709251200,a\n1,2,2024-03-01,b\n",
                "points.csv:3: time (\"t\") \"2024-03-01\" is an ISO 8601"
            ),
            (
                "lat,lng,t,k\n1,2,2024-03-01,a\n1,2,1709251200,b\n",
                "points.csv:3: time (\"t\") \"1709251200\" is Unix seconds"
            ),
            ("lat,lng,t,k\n1,2,2024-02-30,a\n", "points.csv:2: time (\"t\") \"2024-02-30\" is not a time"),
            ("lat,lng,t,k\n1,2,,a\n", "points.csv:2: time (\"t\") is empty"),
            ("lat,lng,t,k\n1,2,2024-03-01,\n", "points.csv:2: category (\"k\") is empty"),
            ("lat,lng,k\n1,2,a\n", "points.csv:1: no time column \"t\""),
            ("lat,lng,t\n1,2,3\n", "points.csv:1: no category column \"k\""),
        ])
    func csvErrors(text: String, message: String) throws {
        var options = PointReadOptions()
        options.timeColumn = "t"
        options.categoryColumns = ["k"]
        let found = try ReaderFiles.message(text, options: options)
        #expect(found?.hasPrefix(message) == true, "\(found ?? "no error")")
    }

    @Test("JSON errors give the line and column of the value")
    func jsonErrors() throws {
        var options = PointReadOptions()
        options.timeColumn = "t"
        options.categoryColumns = ["k"]
        let cases = [
            (
                "{\"lat\":1,\"lng\":2,\"t\":1,\"k\":\"a\"}\n{\"lat\":1,\"lng\":2,\"t\":\"x\",\"k\":\"a\"}\n",
                "points.ndjson:2:22: "
            ),
            (
                "{\"lat\":1,\"lng\":2,\"t\":1,\"k\":null}\n{\"lat\":1,\"lng\":2,\"t\":2,\"k\":\"a\"}\n",
                "points.ndjson:1:28: "
            ),
            (
                "{\"lat\":1,\"lng\":2,\"k\":\"a\"}\n{\"lat\":1,\"lng\":2,\"t\":2,\"k\":\"a\"}\n",
                "has no time field \"t\""
            ),
            (
                "{\"lat\":1,\"lng\":2,\"t\":true,\"k\":\"a\"}\n{\"lat\":1,\"lng\":2,\"t\":2,\"k\":\"a\"}\n",
                "expected a time"
            ),
        ]
        for (text, wanted) in cases {
            let found = try ReaderFiles.message(text, name: "points.ndjson", options: options)
            #expect(found?.contains(wanted) == true, "\(found ?? "no error")")
        }
    }

    @Test("skipped rows leave no time or category behind")
    func skipped() throws {
        var options = PointReadOptions()
        options.timeColumn = "t"
        options.categoryColumns = ["k"]
        options.skipInvalid = true
        let path = try ReaderFiles.write(
            "lat,lng,t,k\n1,2,2024-01-01,a\n1,2,nope,b\n91,2,2024-01-02,c\n1,2,2024-01-03,a\n")
        let file = try PointFileReader.read(path: path, options: options)
        #expect(file.report.skippedCount == 2)
        #expect(file.report.categories.first?.values == ["a"])
        #expect(file.report.categories.first?.counts == [2])
        let range = try #require(file.report.timeRange)
        #expect(range.lowerBound == 1_704_067_200, "\(range)")
        #expect(range.upperBound == 1_704_067_200 + 2 * 86_400, "\(range)")
    }
}
