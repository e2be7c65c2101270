import Foundation
import HeatmapTestSupport
import Testing

@testable import HeatmapKit

/// The sum of a data set's weights is bounded (``PointIndex/maximumTotalWeight``), so that no
/// intensity, M(z), colour or `info` figure becomes infinite: readers name the line that
/// crosses it, the library the point.
@Suite struct WeightLimitTests {
    func write(_ text: String, _ name: String) throws -> String {
        let path = TestScratch.folder.appendingPathComponent("weights-\(UUID().uuidString)-\(name)")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("CSV: the row whose weight crosses the bound is an error naming its line; up to it, all is finite")
    func csv() throws {
        let over = try write("lat,lng,weight\n1,2,6e37\n1,2,3e37\n1,2,2e37\n", "over.csv")
        defer { try? FileManager.default.removeItem(atPath: over) }
        #expect {
            _ = try PointFileReader.read(path: over)
        } throws: { error in
            "\(error)".hasSuffix(
                "over.csv:4: weight \"2e37\" brings the sum of the weights above 1e+38, the most one data set may hold "
                    + "(intensities are 32-bit floats); scale the weights down")
        }
        let skipped = try PointFileReader.read(path: over, options: PointReadOptions(skipInvalid: true))
        #expect(skipped.report.pointsRead == 2 && skipped.report.skippedLines == [4])
        let under = try write("lat,lng,weight\n1,2,6e37\n1,2,3e37\n1,2.0001,9.9e36\n", "under.csv")
        defer { try? FileManager.default.removeItem(atPath: under) }
        let file = try PointFileReader.read(path: under)
        let weights = try #require(file.report.weights)
        #expect(weights.sum.isFinite && weights.mean.isFinite && weights.sum <= 1e38)
        let layer = HeatmapTileLayer(index: file.index)
        for zoom in [0, 3, 12, 22] {
            let m = try layer.normalization(zoom: zoom)
            #expect(m.isFinite && m > 1e37)
        }
        let grid = try #require(try layer.intensity(x: 0, y: 0, zoom: 0))
        #expect(grid.values.allSatisfy { $0.isFinite })
        #expect(try layer.tileFor(x: 0, y: 0, zoom: 0).decoded != nil)
    }

    @Test("JSON and GeoJSON: the element or feature is named with its line and column")
    func json() throws {
        let json = try write(
            "[{\"lat\": 1, \"lng\": 2, \"weight\": 9e37},\n {\"lat\": 1, \"lng\": 2, \"weight\": 2e37}]", "p.json")
        defer { try? FileManager.default.removeItem(atPath: json) }
        #expect {
            _ = try PointFileReader.read(path: json)
        } throws: { error in
            "\(error)".contains("p.json:2:") && "\(error)".contains("element 1: weight")
                && "\(error)".contains("above 1e+38")
        }
        #expect(throws: (any Error).self) { _ = try JSONPointReader.read(contentsOf: json) }
        let geojson = try write(
            "{\"type\": \"MultiPoint\", \"coordinates\": [[2, 1], [3, 1]]}\n", "big.geojson")
        defer { try? FileManager.default.removeItem(atPath: geojson) }
        #expect(try PointFileReader.read(path: geojson).report.pointsRead == 2)
    }

    @Test("the library: the point that crosses the bound is named by the next tile request")
    func library() throws {
        let here = Coordinate(latitude: -37.8, longitude: 144.9)
        let layer = HeatmapTileLayer(weightedData: [
            WeightedLatLng(coordinate: here, intensity: 3e38), WeightedLatLng(coordinate: here, intensity: 3e38),
        ])
        #expect {
            _ = try layer.tileFor(x: 0, y: 0, zoom: 0)
        } throws: { error in
            (error as? HeatmapError)?.description.hasPrefix("point 0: intensity 3e+38 brings the sum") == true
        }
        layer.weightedData = [
            WeightedLatLng(coordinate: here, intensity: 5e37), WeightedLatLng(coordinate: here, intensity: 5e37),
        ]
        let m = try layer.normalization(zoom: 3)
        #expect(m.isFinite && abs(m - 1e38) < 1e32)
        #expect(try layer.tileFor(x: 7, y: 4, zoom: 3).decoded != nil)
    }
}
