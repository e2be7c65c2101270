import Foundation
import HeatmapCore
import HeatmapKit
import Testing

/// Every format reads, with the coordinates and weights written.
@Suite struct PointFormatTests {
    typealias Point = (latitude: Double, longitude: Double, weight: Double)

    func expectPoints(
        _ points: [WeightedLatLng], _ expected: [Point], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let actual = points.map { ($0.coordinate.latitude, $0.coordinate.longitude, $0.intensity) }
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            #expect(
                a.0 == e.latitude && a.1 == e.longitude && a.2 == e.weight, "\(a) != \(e)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("Google's JSON example, with weight, intensity, spelling variants and nested fields ignored")
    func googleJSON() throws {
        let path = ReaderFiles.fixture("google.json")
        expectPoints(
            try ReaderFiles.points(path),
            [(-37.1886, 145.708, 1), (-37.8361, 144.845, 3), (-38.4034, 144.192, 2), (-38.7597, 143.67, 1)])
        let file = try PointFileReader.read(path: path)
        #expect(file.report.format == .json)
        #expect(file.index.count == 4)
        #expect(file.report.weights?.sum == 7)
    }

    @Test("CSV with RFC 4180 quoting: commas, doubled quotes and newlines inside quotes, CRLF")
    func quotedCSV() throws {
        let path = ReaderFiles.fixture("quoted.csv")
        expectPoints(
            try ReaderFiles.points(path),
            [(-37.8136, 144.9631, 1), (-33.8688, 151.2093, 1), (-27.4698, 153.0251, 1), (-31.9505, 115.8605, 1)])
        let weighted = try ReaderFiles.points(path, options: .init(weightColumn: "population"))
        #expect(weighted.map(\.intensity) == [5_000_000, 5_300_000, 2_500_000, 2_100_000])
        // The row after the quoted newline is named by its own line: line 6 holds Perth.
        let bad = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "-31.9505", with: "x")
        #expect(try ReaderFiles.message(bad) == "points.csv:6: latitude \"x\" is not a number")
        // A quote inside an unquoted field is a character, not the start of quoting.
        let literal = try ReaderFiles.write("lat,lng,name\n1,2,He said \"hi\n3,4,x\n5,6,\"\"\"a\"\"\"\n")
        #expect(try PointFileReader.read(path: literal).report.pointsRead == 3)
    }

    @Test("TSV, with `count` as the weight")
    func tsv() throws {
        let path = ReaderFiles.fixture("points.tsv")
        expectPoints(try ReaderFiles.points(path), [(10.5, 20.25, 4), (-10, -20, 0)])
        let report = try PointFileReader.read(path: path).report
        #expect(report.format == .tsv && report.zeroWeightCount == 1)
    }

    @Test("GeoJSON FeatureCollection: Point, MultiPoint, GeometryCollection, weight from a named property")
    func featureCollection() throws {
        let path = ReaderFiles.fixture("collection.geojson")
        let options = PointReadOptions(weightColumn: "mag")
        expectPoints(
            try ReaderFiles.points(path, options: options),
            [(-16.2, 179.5, 4.5), (-17, -179.5, 2), (-18.5, -178, 2), (-15, 178, 0)])
        let report = try PointFileReader.read(path: path, options: options).report
        #expect(report.format == .geojson)
        // Across the antimeridian: from 178 east to -178.
        #expect(report.bounds == PointBounds(south: -18.5, west: 178, north: -15, east: -178))
        #expect(report.bounds?.crossesAntimeridian == true && report.bounds?.longitudeSpan == 4)
        // Without --weight the features have no weight property: each weighs 1.
        #expect(try ReaderFiles.points(path).map(\.intensity) == [1, 1, 1, 1])
    }

    @Test("a bare GeoJSON geometry")
    func bareGeometry() throws {
        expectPoints(
            try ReaderFiles.points(ReaderFiles.fixture("bare.geojson")),
            [(48.85, 2.35, 1), (52.52, 13.4, 1), (51.5, -0.12, 1)])
    }

    @Test("NDJSON: objects and features, one a line, blank lines ignored")
    func ndjson() throws {
        let path = ReaderFiles.fixture("points.ndjson")
        expectPoints(try ReaderFiles.points(path), [(1, 2, 2), (3, 4, 5), (5, 6, 1)])
        #expect(try PointFileReader.read(path: path).report.format == .ndjson)
        let bad = try ReaderFiles.message("{\"lat\": 1, \"lng\": 2}\n{\"lat\": 100, \"lng\": 2}\n", name: "p.ndjson")
        #expect(bad == "p.ndjson:2:9: latitude \"100\" is out of range -90...90")
    }

    @Test("gzip through zlib, the format found through .gz")
    func gzip() throws {
        let path = ReaderFiles.fixture("points.csv.gz")
        expectPoints(try ReaderFiles.points(path), [(1, 2, 3), (4, 5, 6), (-7, -8, 9)])
        #expect(try PointFileReader.read(path: path).report.format == .csv)
    }

    @Test("cities15000.csv as is, weighted by population with --weight weight")
    func cities() throws {
        let file = try PointFileReader.read(
            path: ReaderFiles.fixture("cities-excerpt.csv"), options: .init(weightColumn: "weight"))
        #expect(file.report.pointsRead == 301)
        #expect(file.report.weights?.sum == 29_759_835)
        #expect(file.report.zeroWeightCount == 2)
        #expect(file.report.skippedCount == 0)
        let points = try ReaderFiles.points(ReaderFiles.fixture("cities-excerpt.csv"))
        #expect(points.last?.coordinate == Coordinate(latitude: -0.77024, longitude: 34.75077))
    }

    @Test(
        "the format is detected from the content when the name says nothing",
        arguments: [
            ("[{\"lat\": 1, \"lng\": 2}]", PointFormat.json),
            ("{\"type\": \"Point\", \"coordinates\": [2, 1]}", .geojson),
            ("{\"lat\": 1, \"lng\": 2}\n{\"lat\": 3, \"lng\": 4}\n", .ndjson), ("lat,lng\n1,2\n", .csv),
            ("lat\tlng\n1\t2\n", .tsv),
        ])
    func detection(text: String, format: PointFormat) throws {
        let path = try ReaderFiles.write(text, name: "points.data")
        #expect(try PointFileReader.read(path: path).report.format == format)
        #expect(PointFormat(fileName: "a/b.GeoJSON.gz") == .geojson && PointFormat(fileName: "a.b/c") == nil)
    }

    @Test("--lat, --lng and --weight name the columns, and --data-format overrides the extension")
    func namedColumns() throws {
        let path = try ReaderFiles.write("a;b\nn,s,e,w\n1,10,20,2\n", name: "points.json")
        let options = PointReadOptions(
            format: .csv, latitudeColumn: "s", longitudeColumn: "E", weightColumn: "w")
        let csv = try ReaderFiles.write("n,s,e,w\n1,10,20,2\n", name: "points.json")
        expectPoints(try ReaderFiles.points(csv, options: options), [(10, 20, 2)])
        #expect(ReaderFiles.error(reading: path, options: options) != nil)
        let json = try ReaderFiles.write("[{\"s\": 1, \"e\": 2, \"w\": 3}]", name: "p.json")
        expectPoints(
            try ReaderFiles.points(json, options: .init(latitudeColumn: "s", longitudeColumn: "e", weightColumn: "w")),
            [(1, 2, 3)])
    }

    @Test("records with quoted newlines across the 1 MiB chunks keep their count, weights and line numbers")
    func chunkBoundaries() throws {
        var generator = SplitMix64(seed: 3)
        var text = "name,lat,lng,weight\n"
        var line = 2
        var sum = 0
        for row in 0..<80_000 {
            let breaks = Int.random(in: 0...2, using: &generator)
            let name = (0...breaks).map { _ in "a, \"\"b\"\" " }.joined(separator: "\n")
            let weight = row % 10
            sum += weight
            text += "\"\(name)\",\(Double(row % 170) - 85),\(row % 360 - 180),\(weight)\r\n"
            line += breaks + 1
        }
        #expect(text.utf8.count > 2 << 20)
        let report = try PointFileReader.read(path: try ReaderFiles.write(text)).report
        #expect(report.pointsRead == 80_000 && report.weights?.sum == Double(sum))
        #expect(
            try ReaderFiles.message(text + "x,91,0,1\n")
                == "points.csv:\(line): latitude \"91\" is out of range -90...90")
    }
}
