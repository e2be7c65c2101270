import Foundation
import HeatmapCore
import HeatmapKit

/// The benchmark's data: Gaussian clusters over North America plus 10% uniform background,
/// weights uniform in 0.5...2, all from one seed.
struct SyntheticData {
    /// A cluster's centre and spread (standard deviation) in degrees.
    struct Cluster {
        var latitude: Double
        var longitude: Double
        var spread: Double
    }

    /// The continent's box: latitudes and longitudes in degrees.
    static let latitudes = 25.0...50.0
    static let longitudes = -125.0 ... -70.0

    let clusters: [Cluster]
    let points: [WeightedLatLng]
    /// A few background points, for finding sparse tiles.
    let background: [Coordinate]

    init(count: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let clusters = (0..<24).map { _ in
            Cluster(
                latitude: Double.random(in: Self.latitudes, using: &rng),
                longitude: Double.random(in: Self.longitudes, using: &rng),
                spread: [0.02, 0.1, 0.5, 2][Int.random(in: 0..<4, using: &rng)])
        }
        var points: [WeightedLatLng] = []
        points.reserveCapacity(count)
        var background: [Coordinate] = []
        for i in 0..<count {
            let weight = Double.random(in: 0.5...2, using: &rng)
            if i % 10 == 0 {
                let c = Coordinate(
                    latitude: Double.random(in: Self.latitudes, using: &rng),
                    longitude: Double.random(in: Self.longitudes, using: &rng))
                if background.count < 64 { background.append(c) }
                points.append(WeightedLatLng(coordinate: c, intensity: weight))
            } else {
                let cluster = clusters[Int.random(in: 0..<clusters.count, using: &rng)]
                // Box–Muller: two uniform numbers make a normal pair.
                let u = Double.random(in: Double.ulpOfOne..<1, using: &rng)
                let v = Double.random(in: 0..<1, using: &rng)
                let r = (-2 * log(u)).squareRoot() * cluster.spread
                let latitude = min(85, max(-85, cluster.latitude + r * cos(2 * .pi * v)))
                let longitude = cluster.longitude + r * sin(2 * .pi * v)
                points.append(
                    WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: weight))
            }
        }
        self.clusters = clusters
        self.points = points
        self.background = background
    }
}
