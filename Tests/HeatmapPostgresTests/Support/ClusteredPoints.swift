import HeatmapCore
import HeatmapKit

/// Seeded points for M(z)'s tests.
enum ClusteredPoints {
    /// Clusters of different spreads (one across the antimeridian, one near the pole limit),
    /// a uniform background and one heavy point alone, from `seed`.
    static func points(seed: UInt64) -> [WeightedLatLng] {
        var rng = SplitMix64(seed: seed)
        let centres: [(Double, Double, Double)] = [
            (40.7, -74.0, 0.01), (34.0, -118.2, 0.2), (-16.0, 179.99, 0.05), (84.9, 10, 0.3),
            (Double.random(in: -60...60, using: &rng), Double.random(in: -170...170, using: &rng), 1),
        ]
        var points: [WeightedLatLng] = []
        for i in 0..<6_000 {
            let weight = Double.random(in: 0.5...2, using: &rng)
            let coordinate: Coordinate
            if i % 10 == 0 {
                coordinate = Coordinate(
                    latitude: Double.random(in: -70...70, using: &rng),
                    longitude: Double.random(in: -180..<180, using: &rng))
            } else {
                let (lat, lng, spread) = centres[i % centres.count]
                let latitude = min(85, max(-85, lat + Double.random(in: -spread...spread, using: &rng)))
                var longitude = lng + Double.random(in: -spread...spread, using: &rng)
                if longitude >= 180 { longitude -= 360 }
                coordinate = Coordinate(latitude: latitude, longitude: longitude)
            }
            points.append(WeightedLatLng(coordinate: coordinate, intensity: weight))
        }
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 20), intensity: 40))
        return points
    }
}
