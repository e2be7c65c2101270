import HeatmapCore
import Testing

/// Tiles stitched side by side equal one render of the same area.
@Suite struct SeamTests {
    static let index: PointIndex? = try? PointIndex(points: SampleData.random(count: 3000, seed: 9))

    /// Renders `columns × rows` tiles from (`x`, `y`) one by one and as one rectangle, and
    /// checks that every pixel is identical.
    func expectSeamless(zoom: Int, scale: Int, x: Int, y: Int, columns: Int = 2, rows: Int = 2) throws {
        let index = try #require(Self.index)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let kernel = GaussianKernel(radius: 20 * scale)
        let t = space.tileSize
        let whole = index.intensity(
            in: PixelRect(x: x * t, y: y * t, width: columns * t, height: rows * t), space: space, kernel: kernel)
        var differing = 0
        for row in 0..<rows {
            for column in 0..<columns {
                let tileX = (x + column) % space.tilesAcross
                let tile = index.intensity(
                    in: PixelRect(tileX: tileX, y: y + row, in: space), space: space, kernel: kernel)
                for j in 0..<t {
                    for i in 0..<t where tile[i, j] != whole[column * t + i, row * t + j] { differing += 1 }
                }
            }
        }
        #expect(differing == 0, "z\(zoom) s\(scale) from \(x),\(y): \(differing) pixels differ")
    }

    @Test("2×2 tiles equal one render, zooms 1 to 12, scales 1 to 3")
    func stitched() throws {
        let cluster = Coordinate(latitude: -17, longitude: 179.99)
        for zoom in [1, 4, 8, 12] {
            for scale in [1, 2, 3] {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                let x =
                    space.pixel(ofUnit: UInt64(WebMercator.unitX(longitude: cluster.longitude - 1))) / space.tileSize
                let y = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: cluster.latitude))) / space.tileSize
                try expectSeamless(zoom: zoom, scale: scale, x: max(0, x - 1), y: min(y, space.tilesAcross - 2))
            }
        }
    }

    @Test("tile x = 2^z − 1 meets tile x = 0 across the antimeridian")
    func antimeridian() throws {
        for zoom in [1, 3, 6, 10] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let y = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: -17))) / space.tileSize
            try expectSeamless(zoom: zoom, scale: 1, x: space.tilesAcross - 1, y: min(y, space.tilesAcross - 2))
        }
    }

    @Test("at zoom 0 the one tile wraps onto itself")
    func zoomZero() throws {
        let index = try #require(Self.index)
        let space = try PixelSpace(zoom: 0, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let tile = index.intensity(in: PixelRect(tileX: 0, y: 0, in: space), space: space, kernel: kernel)
        let shifted = index.intensity(
            in: PixelRect(x: 256, y: 0, width: 256, height: 256), space: space, kernel: kernel)
        #expect(tile.values == shifted.values)
    }
}
