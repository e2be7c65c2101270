import HeatmapCore
import Testing

/// M(z) is the true maximum over the whole world.
@Suite struct MaximumIntensityTests {
    func expectMaximum(_ points: [WeightedLatLng], zoom: Int, scale: Int = 1, radius: Int = 20) throws {
        let index = try PointIndex(points: points)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let m = Double(index.maximumIntensity(space: space, kernel: GaussianKernel(radius: radius * scale)))
        let reference = ReferenceRenderer.maximum(of: points, space: space, radius: radius * scale)
        #expect(reference > 0)
        #expect(abs(m - reference) <= 1e-5 * reference, "zoom \(zoom) scale \(scale): M \(m), brute force \(reference)")
    }

    @Test("police stations: M(z) equals the brute-force maximum", arguments: [0, 3, 6, 9, 12, 16])
    func policeStations(zoom: Int) throws {
        try #require(SampleData.policeStations.count == 345)
        try expectMaximum(SampleData.policeStations, zoom: zoom)
        try expectMaximum(SampleData.policeStations, zoom: zoom, scale: 2)
    }

    @Test("cities: M(z) equals the brute-force maximum", arguments: [0, 3, 6])
    func cities(zoom: Int) throws {
        try #require(SampleData.cities.count == 34_006)
        try expectMaximum(SampleData.cities, zoom: zoom, radius: 10)
    }

    @Test("random data with the antimeridian and the poles", arguments: [0, 2, 5, 9, 13])
    func random(zoom: Int) throws {
        try expectMaximum(SampleData.random(count: 2000, seed: UInt64(zoom)), zoom: zoom)
    }

    @Test("M(z) equals the largest pixel of the rendered tiles")
    func equalsTileMaximum() throws {
        let points = SampleData.policeStations
        let index = try PointIndex(points: points)
        let space = try PixelSpace(zoom: 5, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        var best: Float = 0
        for y in 0..<space.tilesAcross {
            for x in 0..<space.tilesAcross {
                best = max(
                    best,
                    index.intensity(in: PixelRect(tileX: x, y: y, in: space), space: space, kernel: kernel).maximum)
            }
        }
        #expect(index.maximumIntensity(space: space, kernel: kernel) == best)
    }

    @Test("weight(in:) sums the points of a rectangle, wrapping east-west")
    func weightQuery() throws {
        let points = SampleData.random(count: 500, seed: 3)
        let index = try PointIndex(points: points)
        let space = try PixelSpace(zoom: 3, scale: 1)
        let world = space.worldSize
        for rect in [
            PixelRect(x: -100, y: 300, width: 400, height: 900), PixelRect(x: 1900, y: 0, width: 300, height: 2048),
            PixelRect(x: 0, y: 0, width: world, height: world),
        ] {
            var expected = 0.0
            for p in points {
                let (px, py) = space.pixel(of: p.coordinate)
                let inColumns = (-1...1).contains { copy in (rect.x..<(rect.x + rect.width)).contains(px + copy * world)
                }
                if inColumns && (rect.y..<(rect.y + rect.height)).contains(py) {
                    expected += Double(Float(p.intensity))
                }
            }
            #expect(abs(index.weight(in: rect, space: space) - expected) < 1e-6 * max(1, expected))
        }
    }
}
