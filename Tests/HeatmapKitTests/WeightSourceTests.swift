import HeatmapCore
import Testing

@testable import HeatmapKit

/// A source that is not the index: it sums the points of a query pixel by pixel in Double,
/// as a database's `GROUP BY` does, and reports each pixel once through the public sink.
private struct PointListSource: WeightSource {
    let points: [(x: UInt64, y: UInt64, weight: Double)]

    init(_ points: [WeightedLatLng]) {
        self.points = points.map { point in
            (
                UInt64(WebMercator.unitX(longitude: point.coordinate.longitude)),
                UInt64(WebMercator.unitY(latitude: point.coordinate.latitude)), point.intensity
            )
        }
    }

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        var sums: [SIMD2<Int>: Double] = [:]
        for point in points where point.weight > 0 {
            let pixel = SIMD2(query.space.pixel(ofUnit: point.x), query.space.pixel(ofUnit: point.y))
            guard query.columns.contains(pixel.x), query.rows.contains(pixel.y) else { continue }
            sums[pixel, default: 0] += point.weight
        }
        for (pixel, weight) in sums { sink.add(column: pixel.x, row: pixel.y, weight: weight) }
    }
}

@Suite struct WeightSourceTests {
    /// Police stations, plus points either side of the antimeridian and one at the pole's limit.
    static let points: [WeightedLatLng] =
        Fixtures.policeStations + Fixtures.cluster(latitude: -16, longitude: 179.9, count: 20)
        + Fixtures.cluster(latitude: -16.05, longitude: -179.97, count: 20) + [
            WeightedLatLng(coordinate: Coordinate(latitude: 89, longitude: 10), intensity: 4)
        ]

    static let tiles: [(zoom: Int, x: Int, y: Int)] = [
        (0, 0, 0), (3, 7, 4), (3, 0, 4), (6, 57, 39), (7, 115, 78), (10, 924, 628), (6, 63, 34), (6, 0, 34),
    ]

    @Test("a source other than the index gives the same tiles, intensities and M(z)", arguments: [1, 2, 3])
    func sameTiles(scale: Int) throws {
        let fromIndex = HeatmapTileLayer(index: try PointIndex(points: Self.points))
        let fromSource = HeatmapTileLayer(source: PointListSource(Self.points))
        for tile in Self.tiles {
            let mIndex = try fromIndex.normalization(zoom: tile.zoom, scale: scale)
            let mSource = try fromSource.normalization(zoom: tile.zoom, scale: scale)
            #expect(abs(mIndex - mSource) <= 1e-6 * mIndex, "M(\(tile.zoom)) at scale \(scale)")
            let a = try fromIndex.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
            let b = try fromSource.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
            #expect((a == nil) == (b == nil), "tile \(tile) at scale \(scale)")
            if let a, let b {
                let worst = zip(a.values, b.values).map { abs($0 - $1) / max($0, $1, .leastNormalMagnitude) }.max()
                #expect((worst ?? 0) <= 1e-6, "tile \(tile) at scale \(scale)")
            }
            let pngA = try fromIndex.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
            let pngB = try fromSource.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
            #expect(pngA == pngB, "tile \(tile) at scale \(scale)")
        }
    }

    @Test("the index answers the same through the seam as its own gather")
    func indexThroughSeam() throws {
        let index = try PointIndex(points: Self.points)
        for scale in 1...3 {
            for tile in Self.tiles {
                let space = try PixelSpace(zoom: tile.zoom, scale: scale)
                let kernel = GaussianKernel(radius: 20 * scale)
                let rect = PixelRect(tileX: tile.x, y: tile.y, in: space)
                let direct = index.intensity(in: rect, space: space, kernel: kernel)
                let seam = try Self.generic(index, rect: rect, space: space, kernel: kernel)
                #expect(direct.values == seam.values)
                #expect(
                    index.maximumIntensity(space: space, kernel: kernel)
                        == (try Self.genericMaximum(index, space: space, kernel: kernel)))
            }
        }
    }

    @Test("a source's failure is a HeatmapError that says so, and is not cached")
    func failure() throws {
        let layer = HeatmapTileLayer(source: FailingSource())
        #expect(throws: HeatmapError.sourceFailed("database down")) { try layer.tileFor(x: 0, y: 0, zoom: 0) }
        #expect(throws: HeatmapError.sourceFailed("database down")) { try layer.normalization(zoom: 3) }
    }

    private static func generic<S: WeightSource>(
        _ source: S, rect: PixelRect, space: PixelSpace, kernel: GaussianKernel
    ) throws -> IntensityGrid {
        try source.intensity(in: rect, space: space, kernel: kernel)
    }

    private static func genericMaximum<S: WeightSource>(_ source: S, space: PixelSpace, kernel: GaussianKernel)
        throws -> Float
    {
        try source.maximumIntensity(space: space, kernel: kernel)
    }
}

private struct SourceDown: Error, CustomStringConvertible {
    var description: String { "database down" }
}

private struct FailingSource: WeightSource {
    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(SourceDown) {
        throw SourceDown()
    }
}
