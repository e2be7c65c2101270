import Foundation
import HeatmapKit
import Testing

/// A JSON, GeoJSON or NDJSON object that gives a key the reader uses twice is an error naming
/// the file, line, column and key, never a silent choice of the first.
@Suite struct DuplicateKeyTests {
    @Test(
        "a JSON object with the same key twice",
        arguments: [
            (
                "[{\"lat\": 1, \"lng\": 2, \"lat\": 3}]", "p.json",
                "p.json:1:30: element 0: the latitude is given twice (\"lat\" and \"lat\"): keep one"
            ),
            (
                "[{\"lat\": 1, \"latitude\": 3, \"lng\": 2}]", "p.json",
                "p.json:1:25: element 0: the latitude is given twice (\"lat\" and \"latitude\"): keep one"
            ),
            (
                "{\"lat\": 1, \"lng\": 2}\n{\"lat\": 1, \"lng\": 2, \"weight\": 1, \"weight\": 2}\n", "p.ndjson",
                "p.ndjson:2:45: the weight is given twice (\"weight\" and \"weight\"): keep one"
            ),
            (
                "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"properties\": "
                    + "{\"weight\": 1, \"weight\": 2}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}}]}",
                "p.geojson",
                "p.geojson:1:102: feature 0: the weight is given twice (\"weight\" and \"weight\"): keep one"
            ),
            (
                "{\"type\": \"Feature\", \"properties\": {}, \"geometry\": {\"type\": \"Point\", "
                    + "\"coordinates\": [1, 2], \"coordinates\": [3, 4]}}",
                "p.geojson",
                "p.geojson:1:107: \"coordinates\" is given twice: keep one"
            ),
        ])
    func jsonMistakes(text: String, name: String, message: String) throws {
        #expect(try ReaderFiles.message(text, name: name) == message)
    }
}
