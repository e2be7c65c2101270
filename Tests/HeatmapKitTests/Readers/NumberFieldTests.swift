import Foundation
import HeatmapKit
import Testing

/// What a number field is, the same in every reader: a decimal number with any spaces or tabs
/// around it (a CSV/TSV field, quoted or not; a JSON string); JSON numbers as JSON has them.
@Suite struct NumberFieldTests {
    /// One file per reader whose second point's latitude, longitude and weight are written as
    /// `lat`, `lng`, `weight` (JSON: as strings).
    static func files(lat: String, lng: String, weight: String) -> [(name: String, text: String)] {
        // JSON strings cannot hold a raw tab (it would be written \t): spaces there.
        let (lat, lng, weight, csvLat, csvLng, csvWeight) = (
            lat.replacingOccurrences(of: "\t", with: " "), lng.replacingOccurrences(of: "\t", with: " "),
            weight.replacingOccurrences(of: "\t", with: " "), lat, lng, weight
        )
        return [
            ("p.csv", "lat,lng,weight\n-37.8,144.9,1\n\(csvLat),\(csvLng),\(csvWeight)\n"),
            ("q.csv", "lat,lng,weight\n-37.8,144.9,1\n\"\(csvLat)\",\"\(csvLng)\",\"\(csvWeight)\"\n"),
            ("p.tsv", "lat\tlng\tweight\n-37.8\t144.9\t1\n\"\(csvLat)\"\t\"\(csvLng)\"\t\"\(csvWeight)\"\n"),
            (
                "p.json",
                "[{\"lat\": -37.8, \"lng\": 144.9},\n {\"lat\": \"\(lat)\", \"lng\": \"\(lng)\", \"weight\": \"\(weight)\"}]"
            ),
            (
                "p.ndjson",
                "{\"lat\": -37.8, \"lng\": 144.9}\n{\"lat\": \"\(lat)\", \"lng\": \"\(lng)\", \"weight\": \"\(weight)\"}\n"
            ),
            (
                "p.geojson",
                "{\"type\": \"FeatureCollection\", \"features\": [\n"
                    + "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [144.9, -37.8]}},\n"
                    + "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\"\(lng)\", \"\(lat)\"]}, "
                    + "\"properties\": {\"weight\": \"\(weight)\"}}]}"
            ),
        ]
    }

    @Test(
        "spaces and tabs around a number are ignored by every reader",
        arguments: [(" -37.9", "145.0 ", " 2 "), ("\t-37.9", "\t145.0\t", "2\t"), ("  -3.79e1  ", " 1.45e2", "  +2")])
    func surrounded(lat: String, lng: String, weight: String) throws {
        for file in Self.files(lat: lat, lng: lng, weight: weight) {
            let path = try ReaderFiles.write(file.text, name: file.name)
            do {
                let read = try PointFileReader.readPoints(path: path)
                #expect(read.points.count == 2, "\(file.name)")
                let point = try #require(read.points.last)
                #expect(abs(point.coordinate.latitude + 37.9) < 1e-9, "\(file.name): \(point)")
                #expect(abs(point.coordinate.longitude - 145.0) < 1e-9, "\(file.name): \(point)")
                #expect(point.intensity == 2, "\(file.name): \(point)")
            } catch {
                Issue.record("\(file.name): \(error)")
            }
        }
    }

    @Test(
        "spaces inside a number, or only spaces, are not a number in any reader",
        arguments: [
            ("- 37.9", "145.0", "2"), ("-37.9", "145 .0", "2"), ("-37.9", "145.0", " "), ("-37.9", "145.0", "1 e3"),
        ]
    )
    func inside(lat: String, lng: String, weight: String) throws {
        for file in Self.files(lat: lat, lng: lng, weight: weight) {
            let message = try ReaderFiles.message(file.text, name: file.name)
            #expect(message?.hasPrefix(file.name + ":") == true, "\(file.name): \(message ?? "read")")
            // GeoJSON names a bad coordinate's position: `a position must be [longitude, latitude], …`.
            let named = message.map { $0.contains("number") || $0.contains("position") }
            #expect(named == true, "\(file.name): \(message ?? "")")
        }
    }
}
