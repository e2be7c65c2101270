import HeatmapCore
import Testing

/// The kernel-weighted mean against a direct double-precision sum over every point.
@Suite struct MeanTests {
    /// A uniform number in 0..<1.
    static func unit(_ random: inout SplitMix64) -> Double { Double(random.next() >> 11) / 9_007_199_254_740_992 }

    /// Seeded points in a box with values in -50...150 and weights 0...3 (some 0).
    static func sample(count: Int, seed: UInt64) -> (points: [WeightedLatLng], values: [Double]) {
        var random = SplitMix64(seed: seed)
        var points: [WeightedLatLng] = []
        var values: [Double] = []
        for i in 0..<count {
            let lat = -37.5 - Self.unit(&random) * 1.0
            let lng = 144.5 + Self.unit(&random) * 1.5
            let weight = i % 17 == 0 ? 0 : (Self.unit(&random) * 3).rounded(.up)
            points.append(WeightedLatLng(coordinate: Coordinate(latitude: lat, longitude: lng), intensity: weight))
            values.append(-50 + Self.unit(&random) * 200)
        }
        return (points, values)
    }

    /// Σ w·v·K and Σ w·K at every pixel of `rect`, point by point in double precision.
    static func reference(
        _ points: [WeightedLatLng], _ values: [Double], rect: PixelRect, space: PixelSpace, radius: Int
    ) -> (numerator: [Double], density: [Double]) {
        let kernel = GaussianKernel(radius: radius)
        var numerator = [Double](repeating: 0, count: rect.width * rect.height)
        var density = numerator
        for (point, value) in zip(points, values) where point.intensity > 0 {
            let (qx, qy) = space.pixel(of: point.coordinate)
            let top = max(rect.y, qy - radius)
            let bottom = min(rect.y + rect.height - 1, qy + radius)
            let left = max(rect.x, qx - radius)
            let right = min(rect.x + rect.width - 1, qx + radius)
            guard top <= bottom, left <= right else { continue }
            for py in top...bottom {
                for px in left...right {
                    let k = point.intensity * kernel.value(at: px - qx) * kernel.value(at: py - qy)
                    let i = (py - rect.y) * rect.width + (px - rect.x)
                    density[i] += k
                    numerator[i] += k * value
                }
            }
        }
        return (numerator, density)
    }

    @Test("the mean equals Σ w·v·K / Σ w·K, shown exactly where the density reaches the minimum")
    func againstBruteForce() throws {
        let (points, values) = Self.sample(count: 400, seed: 13)
        let index = try ValueIndex(points: points, values: values)
        for (zoom, scale, minimum) in [(7, 1, 0.0), (9, 2, 0.5), (11, 1, 2.0), (8, 3, 0.1)] {
            let space = try PixelSpace(zoom: zoom, scale: scale)
            let radius = 15 * scale
            let centre = space.pixel(of: Coordinate(latitude: -38, longitude: 145.25))
            let rect = PixelRect(x: centre.x - 100, y: centre.y - 80, width: 200, height: 160)
            let grid = index.mean(
                in: rect, space: space, kernel: GaussianKernel(radius: radius), minimumDensity: minimum)
            let (numerator, density) = Self.reference(points, values, rect: rect, space: space, radius: radius)
            var shown = 0
            var worst = 0.0
            for i in 0..<density.count {
                let d = density[i]
                // Pixels within float rounding of the threshold may go either way.
                if abs(d - minimum) <= 1e-5 * max(1, minimum) || d < 1e-30 { continue }
                let expectShown = d > 0 && d >= minimum
                #expect(grid.means[i].isNaN == !expectShown, "z\(zoom) pixel \(i): density \(d)")
                if expectShown, !grid.means[i].isNaN {
                    shown += 1
                    worst = max(worst, abs(Double(grid.means[i]) - numerator[i] / d))
                }
            }
            #expect(shown > 50, "z\(zoom): \(shown) pixels shown")
            #expect(worst < 1e-3, "z\(zoom): the largest error is \(worst) on values spanning 200")
        }
    }

    @Test("the range is the values of the points of positive weight")
    func range() throws {
        let points = (0..<4).map {
            WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: Double($0)), intensity: $0 == 3 ? 0 : 1)
        }
        let index = try ValueIndex(points: points, values: [5, -2, 9, 1000])
        #expect(index.lowest == -2)
        #expect(index.highest == 9)
    }

    @Test("tiles of the mean stitched side by side equal one render of the area")
    func seamless() throws {
        let (points, values) = Self.sample(count: 600, seed: 5)
        let index = try ValueIndex(points: points, values: values)
        let space = try PixelSpace(zoom: 9, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let centre = space.pixel(of: Coordinate(latitude: -38, longitude: 145.25))
        let x = centre.x / 256
        let y = centre.y / 256
        let whole = index.mean(
            in: PixelRect(x: x * 256, y: y * 256, width: 512, height: 512), space: space, kernel: kernel)
        var differing = 0
        for row in 0..<2 {
            for column in 0..<2 {
                let tile = index.mean(
                    in: PixelRect(tileX: x + column, y: y + row, in: space), space: space, kernel: kernel)
                for j in 0..<256 {
                    for i in 0..<256 {
                        let a = tile.means[j * 256 + i]
                        let b = whole.means[(row * 256 + j) * 512 + column * 256 + i]
                        if a.bitPattern != b.bitPattern { differing += 1 }
                    }
                }
            }
        }
        #expect(differing == 0)
        #expect(!whole.isEmpty)
    }

    @Test("positions: the mean's place in the range, clear pixels 0, t = 0 still drawn")
    func positions() throws {
        let points = [WeightedLatLng(coordinate: Coordinate(latitude: 0, longitude: 0))]
        let index = try ValueIndex(points: points, values: [7])
        let space = try PixelSpace(zoom: 3, scale: 1)
        let (px, py) = space.pixel(of: Coordinate(latitude: 0, longitude: 0))
        let grid = index.mean(
            in: PixelRect(x: px - 30, y: py - 30, width: 60, height: 60), space: space,
            kernel: GaussianKernel(radius: 20))
        let low = grid.positions(in: 7...10)
        let high = grid.positions(in: 0...7)
        let centre = 30 * 60 + 30
        #expect(low.values[centre] == Float.leastNonzeroMagnitude)
        #expect(high.values[centre] == 1)
        #expect(low.values[0] == 0)  // beyond the reach: clear
        #expect(grid.positions(in: 7...7).values[centre] == 1)
    }

    @Test("invalid values are errors naming the point")
    func errors() {
        let points = [WeightedLatLng(coordinate: Coordinate(latitude: 0, longitude: 0))]
        for value in [Double.nan, .infinity, 1e39] {
            #expect {
                _ = try ValueIndex(points: points, values: [value])
            } throws: { error in
                (error as? HeatmapError)?.description.contains("point 0: value") ?? false
            }
        }
        #expect(throws: HeatmapError.self) { _ = try ValueIndex(points: points, values: []) }
        let heavy = [
            WeightedLatLng(coordinate: Coordinate(latitude: 0, longitude: 0), intensity: 1e30),
            WeightedLatLng(coordinate: Coordinate(latitude: 1, longitude: 0), intensity: 1e30),
        ]
        #expect {
            _ = try ValueIndex(points: heavy, values: [-1e10, 1e10])
        } throws: { error in
            (error as? HeatmapError)?.description.contains("scale the values") ?? false
        }
    }
}
