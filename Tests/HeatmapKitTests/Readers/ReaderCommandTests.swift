import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// `heatmap info` and `heatmap tile` reading data, run as a user runs them.
@Suite struct ReaderCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    func run(_ arguments: [String], input: Data? = nil) throws -> Run {
        let run = try TestProgram.heatmap(arguments, input: input)
        return Run(status: run.status, output: run.standardOutput, errors: run.standardError)
    }

    @Test("info prints counts, bounds, weights, suggested zooms and M(z) as the library computes them")
    func infoText() throws {
        let path = ReaderFiles.fixture("cities-excerpt.csv")
        let result = try run(["info", path, "--weight", "weight", "--zoom", "3,6"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("(csv): 301 points read, 0 skipped"))
        #expect(result.output.contains("sum 29759835.0"))
        #expect(result.output.contains("zero weights: 2"))
        let file = try PointFileReader.read(path: path, options: .init(weightColumn: "weight"))
        let layer = HeatmapTileLayer(index: file.index)
        #expect(result.output.contains("M(3) = \(try layer.normalization(zoom: 3)) (radius 20, scale 1)"))
        let zooms = file.report.suggestedZoomRange()
        #expect(result.output.contains("suggested zooms: \(zooms.lowerBound)...\(zooms.upperBound) (radius 20)"))
    }

    @Test("info --json, from standard input")
    func infoJSON() throws {
        let text = "lat,lng,weight\n1,2,3\n91,0,1\n-1,-2,0\n"
        let result = try run(
            ["info", "-", "--json", "--zoom", "2", "--radius", "30", "--skip-invalid"], input: Data(text.utf8))
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors == "heatmap: <stdin>: skipped 1 invalid row (line 3)\n")
        struct Output: Decodable {
            struct Normalization: Decodable {
                var zoom: Int
                var value: Double
            }
            var pointsRead: Int
            var skippedCount: Int
            var skippedLines: [Int]
            var zeroWeightCount: Int
            var bounds: PointBounds
            var weights: WeightStatistics
            var normalization: [Normalization]
            var radius: Int
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(result.output.utf8))
        #expect(output.pointsRead == 2 && output.skippedCount == 1 && output.skippedLines == [3])
        #expect(output.zeroWeightCount == 1 && output.radius == 30)
        #expect(output.bounds == PointBounds(south: -1, west: -2, north: 1, east: 2))
        #expect(output.weights == WeightStatistics(minimum: 0, maximum: 3, sum: 3, mean: 1.5))
        #expect(output.normalization.map(\.zoom) == [2] && output.normalization[0].value > 0)
    }

    @Test("gzip-compressed standard input is inflated")
    func gzipStandardInput() throws {
        let bytes = try #require(FileManager.default.contents(atPath: ReaderFiles.fixture("points.csv.gz")))
        let result = try run(["info", "-"], input: bytes)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("<stdin> (csv): 3 points read, 0 skipped\n"))
    }

    @Test("tile reads CSV, with --weight naming the column")
    func tileFromCSV() throws {
        let output = TestScratch.folder.appendingPathComponent("readers-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let path = ReaderFiles.fixture("cities-excerpt.csv")
        let result = try run(["tile", path, "1/1/0", "--weight", "weight", "--output", output.path])
        #expect(result.status == 0, "\(result.errors)")
        let png = [UInt8](try #require(FileManager.default.contents(atPath: output.path)))
        let file = try PointFileReader.read(path: path, options: .init(weightColumn: "weight"))
        let layer = HeatmapTileLayer(index: file.index, settings: .paletteDefault)  // The command's 255 entries.
        #expect(try layer.tileFor(x: 1, y: 0, zoom: 1).png == png)
    }

    @Test(
        "data mistakes print `heatmap: file:line: message` and exit 1; bad options exit 64",
        arguments: [
            (
                ["--data-format", "xml"], Int32(64),
                "--data-format is one of json, csv, tsv, geojson, ndjson, got \"xml\""
            ),
            (["--data-format", "json"], 1, "p.csv:1:1: expected a JSON array or object, found 'l'"),
            (["--lat", "nope"], 1, "p.csv:1: no latitude column \"nope\": the header has \"lat\", \"lng\""),
            ([], 1, "p.csv:3: latitude \"95\" is out of range -90...90"),
        ])
    func mistakes(options: [String], status: Int32, message: String) throws {
        let path = try ReaderFiles.write("lat,lng\n1,2\n95,3\n", name: "p.csv")
        for command in [["info", path], ["tile", path, "0/0/0", "--output", path + ".png"]] {
            let result = try run(command + options)
            #expect(result.status == status)
            #expect(result.errors.contains(message), "\(result.errors)")
        }
    }
}
