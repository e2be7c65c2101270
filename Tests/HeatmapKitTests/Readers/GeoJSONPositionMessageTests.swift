import Foundation
import HeatmapKit
import Testing

/// A GeoJSON position that is not `[longitude, latitude]` numbers: the error says what it
/// holds (it said "found an array" for `[1]` and `["1", "x"]` alike).
@Suite struct GeoJSONPositionMessageTests {
    @Test(
        "the error names the place and what is wrong with the position",
        arguments: [
            ("[1]", "a position must be [longitude, latitude], found an array of 1 value"),
            ("[]", "a position must be [longitude, latitude], found an array of 0 values"),
            ("[\"1\", \"x\"]", "a position must be [longitude, latitude]: its latitude is \"x\", expected a number"),
            ("[null, 2]", "a position must be [longitude, latitude]: its longitude is null, expected a number"),
            ("[true, 2]", "a position must be [longitude, latitude]: its longitude is true, expected a number"),
        ])
    func message(coordinates: String, expected: String) throws {
        let text = "{\"type\": \"Point\", \"coordinates\": \(coordinates)}"
        let message = try ReaderFiles.message(text, name: "p.geojson")
        #expect(message?.hasPrefix("p.geojson:1:") == true, "\(message ?? "read")")
        #expect(message?.hasSuffix(expected) == true, "\(message ?? "read")")
        // In a MultiPoint, the same.
        let multi = "{\"type\": \"MultiPoint\", \"coordinates\": [[1, 2], \(coordinates)]}"
        #expect(try ReaderFiles.message(multi, name: "p.geojson")?.hasSuffix(expected) == true)
    }
}
