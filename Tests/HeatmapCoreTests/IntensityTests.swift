import Foundation
import HeatmapCore
import Testing

/// The engine against the definition, pixel by pixel.
@Suite struct IntensityTests {
    static let points = SampleData.random(count: 3000, seed: 42)
    static let index: PointIndex? = try? PointIndex(points: points)

    /// Asserts that the engine's grid matches the brute-force sum within float rounding, and
    /// is zero exactly where the definition is zero.
    static func expectMatches(_ grid: IntensityGrid, _ reference: [Double], _ label: String) {
        let top = reference.max() ?? 0
        let tolerance = 1e-4 * max(top, 1e-9)
        var worst = 0.0
        var zeroMismatches = 0
        for i in 0..<reference.count {
            let value = Double(grid.values[i])
            worst = max(worst, abs(value - reference[i]))
            if (value == 0) != (reference[i] == 0) { zeroMismatches += 1 }
        }
        #expect(worst <= tolerance, "\(label): largest difference \(worst), tolerance \(tolerance)")
        #expect(zeroMismatches == 0, "\(label): \(zeroMismatches) pixels zero in one and not the other")
        #expect(grid.isEmpty == (top == 0), "\(label): isEmpty is \(grid.isEmpty) but reference max is \(top)")
    }

    @Test("engine equals brute force on random tiles, zooms 0 to 22, scales 1 and 2")
    func randomTiles() throws {
        let index = try #require(Self.index)
        var rng = SplitMix64(seed: 7)
        var nonEmpty = 0
        for zoom in 0...WebMercator.maximumZoom {
            for scale in 1...2 {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                let radius = [10, 20, 50][Int.random(in: 0..<3, using: &rng)] * scale
                // A tile under a random point (so most tiles hold data), and one beside it.
                let anchor = Self.points[Int.random(in: 0..<Self.points.count, using: &rng)]
                let (px, py) = space.pixel(of: anchor.coordinate)
                let tx = px / space.tileSize
                let ty = py / space.tileSize
                for (x, y) in [(tx, ty), ((tx + 1) % space.tilesAcross, ty)] {
                    let rect = PixelRect(tileX: x, y: y, in: space)
                    let grid = index.intensity(in: rect, space: space, kernel: GaussianKernel(radius: radius))
                    let reference = ReferenceRenderer.intensity(of: Self.points, in: rect, space: space, radius: radius)
                    Self.expectMatches(grid, reference, "z\(zoom) s\(scale) tile \(x),\(y) R\(radius)")
                    if !grid.isEmpty { nonEmpty += 1 }
                }
            }
        }
        // Most of the 92 tiles hold data, so the comparison is not of empty grids.
        #expect(nonEmpty >= 50)
    }

    @Test("tiles on the antimeridian and at the poles count points across the edge")
    func edges() throws {
        let index = try #require(Self.index)
        for zoom in [0, 1, 3, 8, 14] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let last = space.tilesAcross - 1
            let tiles = [(0, 0), (last, 0), (0, last), (last, last)]
            for (x, y) in tiles {
                let rect = PixelRect(tileX: x, y: y, in: space)
                let grid = index.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20))
                let reference = ReferenceRenderer.intensity(of: Self.points, in: rect, space: space, radius: 20)
                Self.expectMatches(grid, reference, "z\(zoom) tile \(x),\(y)")
            }
        }
        // The antimeridian cluster: both sides of it at zoom 10 hold intensity.
        let space = try PixelSpace(zoom: 10, scale: 1)
        let y = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: -17))) / space.tileSize
        let west = index.intensity(
            in: PixelRect(tileX: 0, y: y, in: space), space: space, kernel: GaussianKernel(radius: 20))
        let east = index.intensity(
            in: PixelRect(tileX: space.tilesAcross - 1, y: y, in: space), space: space,
            kernel: GaussianKernel(radius: 20))
        #expect(!west.isEmpty && !east.isEmpty)
    }

    @Test("a point spreads as the kernel says: centre weight, k(R) at the reach, 0 beyond")
    func singlePoint() throws {
        let point = WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 20), intensity: 2)
        let index = try PointIndex(points: [point])
        let space = try PixelSpace(zoom: 6, scale: 1)
        let (px, py) = space.pixel(of: Coordinate(latitude: 10, longitude: 20))
        let rect = PixelRect(x: px - 30, y: py - 30, width: 61, height: 61)
        let grid = index.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20))
        #expect(grid[30, 30] == 2)
        #expect(abs(Double(grid[50, 30]) - 2 * exp(-4.5)) < 1e-6)
        #expect(grid[51, 30] == 0)
        #expect(abs(Double(grid[40, 40]) - 2 * exp(-1.125) * exp(-1.125)) < 1e-6)
        #expect(grid.maximum == 2)
    }

    @Test("an empty index draws nothing")
    func emptyIndex() throws {
        let index = try PointIndex(points: [])
        let space = try PixelSpace(zoom: 0, scale: 1)
        let grid = index.intensity(
            in: PixelRect(tileX: 0, y: 0, in: space), space: space, kernel: GaussianKernel(radius: 20))
        #expect(grid.isEmpty)
        #expect(grid.maximum == 0)
        #expect(index.maximumIntensity(space: space, kernel: GaussianKernel(radius: 20)) == 0)
    }
}
