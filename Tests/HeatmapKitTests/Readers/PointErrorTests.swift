import Foundation
import HeatmapKit
import Testing

/// Each kind of mistake stops with the file, line (and column) and what was expected.
@Suite struct PointErrorTests {
    @Test(
        "CSV mistakes name the line",
        arguments: [
            ("lat,lng\n1,2\n91.5,2\n", "points.csv:3: latitude \"91.5\" is out of range -90...90"),
            ("lat,lng\n1,2\n,2\n", "points.csv:3: latitude is empty"),
            ("lat,lng\n1,abc\n", "points.csv:2: longitude \"abc\" is not a number"),
            ("lat,lng\n1,nan\n", "points.csv:2: longitude \"nan\" is not a number"),
            ("lat,lng\n1,1e999\n", "points.csv:2: longitude \"1e999\" is not a finite number"),
            ("lat,lng,weight\n1,2,-3\n", "points.csv:2: weight \"-3\" is negative; weights are finite numbers ≥ 0"),
            ("lat,lng,weight\n1,2,inf\n", "points.csv:2: weight \"inf\" is not a number"),
            (
                "lat,lng,weight\n1,2,1e300\n",
                "points.csv:2: weight \"1e300\" is too large (at most 3.4028234663852886e+38)"
            ),
            (
                "lat,lng,weight\n1,2,\n",
                "points.csv:2: weight is empty: give a number (0 draws nothing), or --skip-invalid to skip such rows"
            ),
            ("lat,lng,weight\n1,2\n", "points.csv:2: has 2 fields, but the weight is field 3 (\"weight\")"),
            (
                "lat,lng\n1,\"2\"x\n",
                "points.csv:2: field 2: unexpected text after a closing quote (write a quote as \"\")"
            ),
            ("lat,lng\n1,2\n3,\"4\n", "points.csv:3: a quoted field is never closed (a missing \")"),
            ("", "points.csv: is empty: expected a header line such as lat,lng,weight"),
            ("\n\n", "points.csv: is empty: expected a header line such as lat,lng,weight"),
            ("lat,lng\n", "points.csv: has a header but no rows of points"),
            (
                "1,2\n",
                "points.csv:1: looks like data, not a header: the first line must name the columns, e.g. lat,lng,weight"
            ),
            (
                "name,when\nx,y\n",
                "points.csv:1: no recognisable columns: the header has \"name\", \"when\"; expected a latitude "
                    + "(lat, latitude, y) and a longitude (lng, lon, long, longitude, x), or name them with --lat COL --lng COL"
            ),
            (
                "lat,name\n1,x\n",
                "points.csv:1: no longitude column: the header has \"lat\", \"name\"; name it with --lng COL"
            ),
        ])
    func csvMistakes(text: String, message: String) throws {
        #expect(try ReaderFiles.message(text) == message)
    }

    @Test(
        "JSON and GeoJSON mistakes name the line, column and element",
        arguments: [
            (
                "[{\"lat\": 1, \"lng\": 2}, {\"lat\": 91.5, \"lng\": 2}]",
                "p.json:1:32: element 1: latitude \"91.5\" is out of range -90...90"
            ),
            ("[\n{\"lat\": 1}\n]", "p.json:2:1: element 0: has no \"lng\" field"),
            (
                "[{\"lat\": \"x\", \"lng\": 2}]",
                "p.json:1:10: element 0: latitude (\"lat\") is \"x\", expected a number"
            ),
            (
                "[{\"lat\": 1, \"lng\": 2, \"weight\": null}]",
                "p.json:1:33: element 0: weight (\"weight\") is null, expected a number (give a number; 0 draws nothing)"
            ),
            (
                "[{\"lat\": 1, \"lng\": 2, \"weight\": -1}]",
                "p.json:1:33: element 0: weight \"-1\" is negative; weights are finite numbers ≥ 0"
            ),
            (
                "[[1, 2]]",
                "p.json:1:2: element 0: expected an object with \"lat\" and \"lng\" or a GeoJSON Feature, found an array"
            ),
            ("[{\"lat\": 1, \"lng\": 2}", "p.json:1:22: the data ends early (a truncated file?)"),
            ("[{\"lat\": 1, \"lng\": 2},]", "p.json:1:23: expected a value, found ']'"),
            ("[{\"lat\": 1 \"lng\": 2}]", "p.json:1:12: expected ',' or '}', found '\"'"),
            ("[{\"lat\": 01x}]", "p.json:1:12: expected ',' or '}', found 'x'"),
            ("[]", "p.json: holds no points"),
            ("   ", "p.json: is empty: expected JSON points such as [{\"lat\": -37.1, \"lng\": 145.7}]"),
            ("\"text\"", "p.json:1:1: expected a JSON array or object, found '\"'"),
            (
                "[{\"name\": 1}]",
                "p.json:1:2: element 0: has no \"lat\" and \"lng\" fields and is not GeoJSON; it has \"name\""
            ),
            (
                "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[1, 2], [3, 4]]}}",
                "p.json:1:33: geometry type \"LineString\" is not supported: only Point and MultiPoint carry points"
            ),
            (
                "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": null}]}",
                "p.json:1:44: feature 0: the feature has no geometry (or a null one)"
            ),
            (
                "{\"type\": \"Point\", \"coordinates\": [1]}",
                "p.json:1:34: a position must be [longitude, latitude], found an array of 1 value"
            ),
            (
                "{\"type\": \"Point\", \"coordinates\": [1, 95]}",
                "p.json:1:38: latitude \"95\" is out of range -90...90"
            ),
        ])
    func jsonMistakes(text: String, message: String) throws {
        #expect(try ReaderFiles.message(text, name: "p.json") == message)
    }

    @Test("the list reader (no index) reports empty and all-invalid files as the index reader does")
    func listReaderErrors() throws {
        for (text, name) in [("[]", "p.json"), ("lat,lng\n91,2\n", "p.csv")] {
            let path = try ReaderFiles.write(text, name: name)
            let indexed = ReaderFiles.error(reading: path)?.description
            var listed: String?
            do {
                _ = try JSONPointReader.read(contentsOf: path)
            } catch {
                listed = error.description
            }
            #expect(indexed != nil && listed == indexed)
        }
        let path = try ReaderFiles.write("lat,lng\n91,2\n3,4\n", name: "p.csv")
        let points = try JSONPointReader.read(contentsOf: path, options: PointReadOptions(skipInvalid: true))
        #expect(points.map(\.coordinate.latitude) == [3])
    }

    @Test("a semicolon-separated header gets a hint")
    func semicolons() throws {
        let message = try #require(try ReaderFiles.message("lat;lng\n1;2\n"))
        #expect(message.hasSuffix("(columns separated by ';' are not supported: use commas or tabs)"))
    }

    @Test("a named weight that a row lacks is an error; without --weight a missing weight is 1")
    func missingWeight() throws {
        let text = "[{\"lat\": 1, \"lng\": 2, \"w\": 2}, {\"lat\": 1, \"lng\": 2}]"
        #expect(
            try ReaderFiles.message(text, name: "p.json", options: .init(weightColumn: "w"))
                == "p.json:1:32: element 1: has no \"w\" field")
        #expect(try ReaderFiles.points(try ReaderFiles.write(text, name: "p.json")).map(\.intensity) == [1, 1])
        #expect(
            try ReaderFiles.message("lat,lng\n1,2\n", options: .init(weightColumn: "w"))
                == "points.csv:1: no weight column \"w\": the header has \"lat\", \"lng\"")
    }

    @Test("a missing or unreadable file says so")
    func unreadable() throws {
        #expect(
            ReaderFiles.error(reading: "/nonexistent/points.csv")?.description
                == "/nonexistent/points.csv: cannot be read: no such file")
        #expect(ReaderFiles.error(reading: NSTemporaryDirectory())?.reason == "is a folder, not a file")
        let corrupt = try ReaderFiles.write(
            Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5]), name: "p.csv.gz")
        #expect(ReaderFiles.error(reading: corrupt)?.reason.contains("gzip") == true)
    }

    @Test("--skip-invalid skips bad rows, counting them and keeping the first lines")
    func skipInvalid() throws {
        var text = "lat,lng,weight\n1,2,1\n"
        for i in 0..<15 { text += i % 2 == 0 ? "91,2,1\n" : "1,2,-1\n" }
        text += "3,4,,\n5,6,0\n"
        let path = try ReaderFiles.write(text)
        #expect(ReaderFiles.error(reading: path)?.line == 3)
        let report = try PointFileReader.read(path: path, options: .init(skipInvalid: true)).report
        #expect(report.pointsRead == 2)
        #expect(report.skippedCount == 16)
        #expect(report.skippedLines == Array(3...12))
        #expect(report.zeroWeightCount == 1)
        #expect(
            report.skipSummary?.hasSuffix(": skipped 16 invalid rows (lines 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, …)")
                == true)
        let allBad = try ReaderFiles.write("lat,lng\n91,1\n92,1\n")
        #expect(
            ReaderFiles.error(reading: allBad, options: .init(skipInvalid: true))?.reason
                == "holds no valid points: all 2 rows were invalid (lines 2, 3…)")
        let syntax = try ReaderFiles.write("[{\"lat\": 1, \"lng\": 2}, {\"lat\" 2}]", name: "p.json")
        #expect(ReaderFiles.error(reading: syntax, options: .init(skipInvalid: true)) != nil)
    }

    @Test("latitudes beyond the Mercator limit are kept, clamped when drawn, and counted")
    func clamped() throws {
        let path = try ReaderFiles.write("lat,lng\n89,0\n-90,10\n85,20\n")
        let file = try PointFileReader.read(path: path)
        #expect(file.index.count == 3)
        #expect(file.report.clampedLatitudeCount == 2)
        #expect(file.report.bounds == PointBounds(south: -90, west: 0, north: 89, east: 20))
    }

    @Test("bounds take the smallest longitude interval, wrapping longitudes")
    func bounds() throws {
        let wrapped = try PointFileReader.read(path: try ReaderFiles.write("lat,lng\n0,190\n0,-175\n0,360\n")).report
        #expect(wrapped.bounds == PointBounds(south: 0, west: -175, north: 0, east: 0))
        let crossing = try PointFileReader.read(path: try ReaderFiles.write("lat,lng\n0,170\n0,-170\n1,-179.9\n"))
            .report
        #expect(crossing.bounds == PointBounds(south: 0, west: 170, north: 1, east: -170))
        let single = try PointFileReader.read(path: try ReaderFiles.write("lat,lng\n5,6\n")).report
        #expect(single.bounds == PointBounds(south: 5, west: 6, north: 5, east: 6))
        #expect(single.suggestedZoomRange() == 22...22)
    }
}
