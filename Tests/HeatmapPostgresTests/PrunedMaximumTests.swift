import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// M(z) by the pruned regional search equals memory's, on clustered data of several seeds.
@Suite(.serialized, .needsPostgres) struct PrunedMaximumTests {
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

    @Test("M(z) from SQL equals memory's at zooms 5 to 17, scales 1 and 2, for three seeds", arguments: [1, 2, 3])
    func sameMaximum(seed: UInt64) throws {
        let cluster = try TestCluster.require()
        let points = Self.points(seed: seed)
        let table = "pruned_\(seed)"
        _ = try PostgresImport.run(points: points, into: table, connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let index = try PointIndex(points: points)
        for zoom in [5, 8, 11, 14, 17] {
            for scale in [1, 2] {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                let kernel = GaussianKernel(radius: 20 * scale)
                let memory = index.maximumIntensity(space: space, kernel: kernel)
                let database = try source.maximumIntensity(space: space, kernel: kernel)
                #expect(memory > 0)
                #expect(
                    abs(memory - database) <= 1e-6 * memory,
                    "seed \(seed), M(\(zoom)) at scale \(scale): \(memory) in memory, \(database) from SQL")
            }
        }
    }
}
