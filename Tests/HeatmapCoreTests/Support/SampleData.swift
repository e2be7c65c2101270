import Foundation
import HeatmapCore

/// Point sets for the tests: the shared samples (copied into Fixtures) and seeded random ones.
enum SampleData {
    /// The 345 police stations of Victoria, Australia (Google's heatmap demo data), weight 1.
    static let policeStations: [WeightedLatLng] = {
        guard
            let url = Bundle.module.url(
                forResource: "police_stations", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url),
            let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Double]]
        else { return [] }
        return rows.compactMap { row in
            guard let lat = row["lat"], let lng = row["lng"] else { return nil }
            return WeightedLatLng(coordinate: Coordinate(latitude: lat, longitude: lng))
        }
    }()

    /// The 34,006 cities of 15,000 people or more, weighted by population / 100,000.
    static let cities: [WeightedLatLng] = {
        guard let url = Bundle.module.url(forResource: "cities15000", withExtension: "csv", subdirectory: "Fixtures"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",", maxSplits: 3)
            guard fields.count >= 3, let lat = Double(fields[0]), let lng = Double(fields[1]),
                let weight = Double(fields[2])
            else { return nil }
            return WeightedLatLng(coordinate: Coordinate(latitude: lat, longitude: lng), intensity: weight / 100_000)
        }
    }()

    /// Random points: clusters, a uniform background, a cluster on the antimeridian and
    /// points beyond the Mercator limits near both poles; weights 0.5...2 and some 0.
    static func random(count: Int, seed: UInt64) -> [WeightedLatLng] {
        var rng = SplitMix64(seed: seed)
        let centres: [Coordinate] =
            (0..<6).map { _ in
                Coordinate(
                    latitude: Double.random(in: -60...60, using: &rng),
                    longitude: Double.random(in: -180..<180, using: &rng))
            } + [Coordinate(latitude: -17, longitude: 179.99), Coordinate(latitude: 84.9, longitude: 10)]
        return (0..<count).map { i in
            let weight = i % 50 == 0 ? 0 : Double.random(in: 0.5...2, using: &rng)
            switch i % 10 {
            case 0:
                return WeightedLatLng(
                    coordinate: Coordinate(
                        latitude: Double.random(in: -90...90, using: &rng),
                        longitude: Double.random(in: -180...180, using: &rng)),
                    intensity: weight)
            case 1:
                let lat =
                    Bool.random(using: &rng)
                    ? Double.random(in: 85...90, using: &rng) : Double.random(in: -90 ... -85, using: &rng)
                return WeightedLatLng(
                    coordinate: Coordinate(latitude: lat, longitude: Double.random(in: -180...180, using: &rng)),
                    intensity: weight)
            default:
                let c = centres[Int.random(in: 0..<centres.count, using: &rng)]
                let spread = [0.001, 0.05, 2.0][Int.random(in: 0..<3, using: &rng)]
                let lat = min(90, max(-90, c.latitude + Double.random(in: -spread...spread, using: &rng)))
                return WeightedLatLng(
                    coordinate: Coordinate(
                        latitude: lat, longitude: c.longitude + Double.random(in: -spread...spread, using: &rng)),
                    intensity: weight)
            }
        }
    }
}
