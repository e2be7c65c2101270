@_spi(Benchmark) import HeatmapCore
import Testing

/// The search for M(z) finds the brute-force maximum from every start: the zoom-0 grid,
/// and the cell sweep at every cell size, on clustered data at fine zooms, at every scale,
/// across the antimeridian.
@Suite struct MaximumSearchStartTests {
    /// Tight clusters (some on the antimeridian, one at the top edge of the map) and a
    /// sprinkle of lone points, so that fine zooms have both crowded and empty cells.
    static func clusters(seed: UInt64) -> [WeightedLatLng] {
        var random = SplitMix64(seed: seed)
        let centres = [(40.0, -100.0), (-33.9, 151.2), (10.0, 179.9999), (10.0, -179.9999), (85.05, 20.0), (0.0, 0.0)]
        var points: [WeightedLatLng] = []
        for (i, centre) in centres.enumerated() {
            let spread = [0.0005, 0.002, 0.01][i % 3]
            for _ in 0..<150 {
                let lat = min(85.05, max(-85.05, centre.0 + (Double.random(in: 0..<1, using: &random) - 0.5) * spread))
                var lng = centre.1 + (Double.random(in: 0..<1, using: &random) - 0.5) * spread
                if lng >= 180 { lng -= 360 }
                if lng < -180 { lng += 360 }
                points.append(
                    WeightedLatLng(
                        coordinate: Coordinate(latitude: lat, longitude: lng),
                        intensity: 0.5 + Double.random(in: 0..<1, using: &random) * 1.5))
            }
        }
        for _ in 0..<200 {
            points.append(
                WeightedLatLng(
                    coordinate: Coordinate(
                        latitude: (Double.random(in: 0..<1, using: &random) - 0.5) * 160,
                        longitude: (Double.random(in: 0..<1, using: &random) - 0.5) * 360),
                    intensity: Double.random(in: 0..<1, using: &random) * 2))
        }
        return points
    }

    @Test("every start finds the brute-force maximum", arguments: [4, 9, 13, 16, 19, 22])
    func everyStart(zoom: Int) throws {
        let points = Self.clusters(seed: UInt64(zoom))
        let index = try PointIndex(points: points)
        for (scale, radius) in [(1, 10), (1, 20), (2, 20), (3, 10)] + (zoom == 16 ? [(1, 50)] : []) {
            let space = try PixelSpace(zoom: zoom, scale: scale)
            let kernel = GaussianKernel(radius: radius * scale)
            let reference = ReferenceRenderer.maximum(of: points, space: space, radius: radius * scale)
            #expect(reference > 0)
            let m = Double(index.maximumIntensity(space: space, kernel: kernel))
            #expect(
                abs(m - reference) <= 1e-5 * reference,
                "zoom \(zoom) scale \(scale) radius \(radius): M \(m), brute force \(reference)")
        }
    }

    @Test("no weight gives 0 and one point gives its weight, from every start", arguments: [3, 16, 22])
    func edgeCases(zoom: Int) throws {
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let nothing = try PointIndex(points: [
            WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 179.9999), intensity: 0),
            WeightedLatLng(coordinate: Coordinate(latitude: -40, longitude: 20), intensity: 0),
        ])
        let one = try PointIndex(points: [
            WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 179.9999), intensity: 2.5)
        ])
        #expect(nothing.maximumIntensity(space: space, kernel: kernel) == 0)
        #expect(one.maximumIntensity(space: space, kernel: kernel) == 2.5)
    }
}
