import Foundation
import HeatmapKit

/// Fixtures shared by the HeatmapKit tests.
enum Fixtures {
    /// The path of a fixture file.
    static func path(_ name: String) -> String {
        Bundle.module.resourceURL?.appendingPathComponent("Fixtures/\(name)").path ?? name
    }

    /// The police stations of Victoria (345 points), read by the JSON reader.
    static let policeStations: [WeightedLatLng] =
        (try? JSONPointReader.read(contentsOf: path("police_stations.json"))) ?? []

    /// Points around a place, on a fixed grid so tests need no randomness.
    static func cluster(latitude: Double, longitude: Double, count: Int = 50) -> [WeightedLatLng] {
        (0..<count).map { (i: Int) -> WeightedLatLng in
            let row = Double(i % 7)
            let column = Double(i / 7)
            let coordinate = Coordinate(latitude: latitude + row * 0.01, longitude: longitude + column * 0.01)
            return WeightedLatLng(coordinate: coordinate, intensity: 1 + Double(i % 3))
        }
    }
}

extension TileResult {
    /// The decoded image, `nil` when not an image or not decodable.
    var decoded: RGBAImage? {
        guard let png else { return nil }
        return try? PNGDecoder.decode(png)
    }
}
