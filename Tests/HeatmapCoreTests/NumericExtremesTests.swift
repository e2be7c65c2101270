import Testing

@testable import HeatmapCore

/// The engine at the edges of its number ranges: weights up to the data set's bound, any
/// finite coordinate, kernels queried anywhere; finite results or typed errors, never a trap.
@Suite struct NumericExtremesTests {
    static func point(_ latitude: Double, _ longitude: Double, _ weight: Double = 1) -> WeightedLatLng {
        WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: weight)
    }

    @Test(
        "weights: finite ones up to the bound index, others are refused naming the point",
        arguments: [
            0, -0.0, .leastNonzeroMagnitude, Double(Float.leastNonzeroMagnitude), 1e-40, 1, 1e30, 1e38,
            1e38.nextUp, Double(Float.greatestFiniteMagnitude), .greatestFiniteMagnitude, -1, -.leastNonzeroMagnitude,
            .infinity, -.infinity, .nan,
        ])
    func weights(weight: Double) throws {
        let points = [Self.point(-37.8, 144.9), Self.point(-37.8, 144.9, weight)]
        let valid = weight >= 0 && weight.isFinite && 1 + Double(Float(weight)) <= PointIndex.maximumTotalWeight
        do {
            let index = try PointIndex(points: points)
            #expect(valid, "weight \(weight) was accepted")
            #expect(index.totalWeight.isFinite && index.totalWeight <= PointIndex.maximumTotalWeight * (1 + 1e-12))
            for zoom in [0, 3, 12, 22] {
                let space = try PixelSpace(zoom: zoom, scale: 2)
                let m = index.maximumIntensity(space: space, kernel: GaussianKernel(radius: 40))
                #expect(m.isFinite && m >= 0)
                let (x, y) = space.pixel(of: points[0].coordinate)
                let tile = PixelRect(tileX: x / space.tileSize, y: y / space.tileSize, in: space)
                let grid = index.intensity(in: tile, space: space, kernel: GaussianKernel(radius: 40))
                #expect(grid.values.allSatisfy { $0.isFinite } && grid.maximum <= m * (1 + 1e-5))
            }
        } catch {
            #expect(!valid, "weight \(weight): \(error)")
            guard case .invalidPoint(let index, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(index == 1)
        }
    }

    @Test("weights summing beyond the bound are refused at the point that crosses it; up to it, M(z) is finite")
    func totalWeight() throws {
        let half = PointIndex.maximumTotalWeight / 2
        let atBound = try PointIndex(points: [Self.point(0, 0, half), Self.point(0, 0, half)])
        for zoom in [0, 5, 22] {
            let m = atBound.maximumIntensity(
                space: try PixelSpace(zoom: zoom, scale: 1), kernel: GaussianKernel(radius: 20))
            #expect(m.isFinite)
            #expect(abs(Double(m) - PointIndex.maximumTotalWeight) <= PointIndex.maximumTotalWeight * 1e-6)
        }
        #expect(throws: HeatmapError.self) {
            try PointIndex(points: [Self.point(0, 0, half), Self.point(0, 0, half), Self.point(0, 0, 1e31)])
        }
        do {
            _ = try PointIndex(points: [Self.point(0, 0, 3e38), Self.point(0, 0, 3e38)])
            Issue.record("3e38 accepted")
        } catch {
            #expect(error == .invalidPoint(index: 0, reason: PointIndex.totalWeightReason("intensity 3e+38")))
            #expect(error.description.hasPrefix("point 0: intensity 3e+38 brings the sum of the weights above 1e+38"))
        }
        var builder = PointIndex.Builder()
        try builder.append(latitude: 0, longitude: 0, intensity: 6e37)
        #expect(throws: HeatmapError.self) { try builder.append(latitude: 0, longitude: 0, intensity: 6e37) }
        #expect(builder.count == 1 && builder.totalWeight == Double(Float(6e37)))
        #expect(builder.build().count == 1 && builder.totalWeight == 0)
    }

    @Test(
        "coordinates: every finite longitude wraps, latitudes in -90...90 clamp, others are refused",
        arguments: [
            (0.0, 0.0), (90, 180), (-90, -180), (85.06, 1e15), (-0.0, -0.0), (1, .greatestFiniteMagnitude),
            (1, -.greatestFiniteMagnitude), (1, 2.9768627017671585e+34), (1, 1e300), (1, .leastNonzeroMagnitude),
            (90.0.nextUp, 0), (-90.0.nextDown, 0), (.nan, 0), (0, .nan), (.infinity, 0), (0, -.infinity),
        ])
    func coordinates(latitude: Double, longitude: Double) throws {
        let valid = (-90...90).contains(latitude) && longitude.isFinite
        do {
            let index = try PointIndex(points: [Self.point(latitude, longitude, 2)])
            #expect(valid)
            let space = try PixelSpace(zoom: 4, scale: 3)
            let (x, y) = space.pixel(of: index.points[0].coordinate)
            #expect((0..<space.worldSize).contains(x) && (0..<space.worldSize).contains(y))
            let tile = PixelRect(tileX: x / space.tileSize, y: y / space.tileSize, in: space)
            let grid = index.intensity(in: tile, space: space, kernel: GaussianKernel(radius: 30))
            #expect(grid.values.allSatisfy { $0.isFinite } && !grid.isEmpty)
        } catch {
            #expect(!valid)
        }
        // The projection itself is total: no value traps it.
        _ = WebMercator.unitX(longitude: longitude)
        _ = WebMercator.unitY(latitude: latitude)
    }

    @Test("the kernel answers 0 beyond its reach for any distance, Int.min and Int.max too")
    func kernelEverywhere() {
        let kernel = GaussianKernel(radius: 60)
        for t in [Int.min, Int.min + 1, -61, 61, Int.max] { #expect(kernel.value(at: t) == 0) }
        #expect(kernel.value(at: 0) == 1 && kernel.value(at: -60) > 0)
    }
}
