import Foundation
import HeatmapCore
import HeatmapKit
import Testing

/// Weights between 0 and ``PointIndex/minimumPositiveWeight``: refused naming the place by
/// every reader (they used to become 0 as 32-bit floats while `info` counted them), and the
/// smallest accepted ones draw the brute-force sum.
@Suite struct SmallWeightTests {
    /// One file per reader, its second point weighing `weight`, and where the error points.
    static func files(_ weight: String) -> [(name: String, text: String, place: String)] {
        [
            ("p.csv", "lat,lng,weight\n-37.8,144.9,1\n-37.9,145.0,\(weight)\n", "p.csv:3:"),
            ("p.tsv", "lat\tlng\tweight\n-37.8\t144.9\t1\n-37.9\t145.0\t\(weight)\n", "p.tsv:3:"),
            (
                "p.json",
                "[{\"lat\": -37.8, \"lng\": 144.9},\n {\"lat\": -37.9, \"lng\": 145.0, \"weight\": \(weight)}]",
                "p.json:2:"
            ),
            (
                "p.ndjson",
                "{\"lat\": -37.8, \"lng\": 144.9}\n{\"lat\": -37.9, \"lng\": 145.0, \"weight\": \"\(weight)\"}\n",
                "p.ndjson:2:"
            ),
            (
                "p.geojson",
                "{\"type\": \"FeatureCollection\", \"features\": [\n"
                    + "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [144.9, -37.8]}},\n"
                    + "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [145.0, -37.9]}, "
                    + "\"properties\": {\"weight\": \(weight)}}]}",
                "p.geojson:3:"
            ),
        ]
    }

    @Test(
        "a weight above 0 and below 1e-30 is an error naming file, line and weight, in every reader",
        arguments: ["1e-31", "1e-40", "1.4e-45", "1e-50", "1e-320", "9.99e-31"])
    func refused(weight: String) throws {
        for file in Self.files(weight) {
            let message = try ReaderFiles.message(file.text, name: file.name)
            #expect(message?.hasPrefix(file.place) == true, "\(file.name): \(message ?? "read")")
            #expect(message?.contains("weight \"\(weight)\" is too small") == true, "\(file.name): \(message ?? "")")
            #expect(message?.contains("at least 1e-30") == true, "\(file.name): \(message ?? "")")
            // Skipped, and reported, under --skip-invalid.
            let path = try ReaderFiles.write(file.text, name: file.name)
            let read = try PointFileReader.read(path: path, options: PointReadOptions(skipInvalid: true))
            #expect(read.report.pointsRead == 1 && read.report.skippedCount == 1, "\(file.name)")
        }
    }

    @Test("0, -0 and weights from 1e-30 up read", arguments: ["0", "-0", "0.0", "1e-30", "1.5e-30", "1e-20"])
    func accepted(weight: String) throws {
        for file in Self.files(weight) {
            let message = try ReaderFiles.message(file.text, name: file.name)
            #expect(message == nil, "\(file.name): \(message ?? "")")
        }
    }

    @Test("request bodies (POST, DELETE) and the streaming read of import refuse them the same way")
    func bodiesAndImport() throws {
        let text = "lat,lng,weight\n-37.8,144.9,1\n-37.9,145.0,1e-40\n"
        do {
            _ = try PointFileReader.readPoints(
                bytes: Array(text.utf8), name: "request body", options: PointReadOptions(format: .csv))
            Issue.record("the body read")
        } catch {
            #expect(error.description.hasPrefix("request body:3: weight \"1e-40\" is too small"), "\(error)")
        }
        let path = try ReaderFiles.write(text, name: "import.csv")
        do {
            _ = try PointFileReader.readPoints(path: path, chunkSize: 1) { _ in }
            Issue.record("the import read")
        } catch {
            #expect(error.description.contains("import.csv:3: weight \"1e-40\" is too small"), "\(error)")
        }
    }

    @Test("tiles of the smallest weights accepted equal the brute-force sum (no subnormal share is lost)")
    func smallestDrawExactly() throws {
        var rng = SeededGenerator(state: 11)
        var text = "lat,lng,weight\n"
        var points: [WeightedLatLng] = []
        for i in 0..<400 {
            let latitude = -37.8 + Double(rng.next() % 1000) / 5000
            let longitude = 144.9 + Double(rng.next() % 1000) / 5000
            let weight = [1e-30, 1.3e-30, 7e-30, 2e-29][i % 4]
            text += "\(latitude),\(longitude),\(weight)\n"
            points.append(
                WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: weight))
        }
        let file = try PointFileReader.read(path: try ReaderFiles.write(text))
        #expect(file.report.pointsRead == 400 && file.report.zeroWeightCount == 0)
        for (zoom, radius) in [(9, 10), (12, 20), (15, 50)] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let (x, y) = space.pixel(of: points[0].coordinate)
            // The point's tile and the tile beside it (where only the kernels' edges reach, if any).
            for dx in [0, 1] {
                let rect = PixelRect(tileX: x / space.tileSize + dx, y: y / space.tileSize, in: space)
                let grid = file.index.intensity(in: rect, space: space, kernel: GaussianKernel(radius: radius))
                let reference = ReferenceRenderer.intensity(of: points, in: rect, space: space, radius: radius)
                let top = reference.max() ?? 0
                var worst = 0.0
                var zeroMismatches = 0
                for (value, expected) in zip(grid.values, reference) {
                    worst = max(worst, abs(Double(value) - expected))
                    if (value == 0) != (expected == 0) { zeroMismatches += 1 }
                }
                if dx == 0 { #expect(top > 0, "zoom \(zoom)") }
                #expect(worst <= 1e-4 * top, "zoom \(zoom) dx \(dx): largest difference \(worst) of \(top)")
                #expect(zeroMismatches == 0, "zoom \(zoom) dx \(dx)")
            }
        }
    }
}

/// SplitMix64, so the points are the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
