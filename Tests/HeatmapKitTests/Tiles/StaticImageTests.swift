import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

/// Static images: the crop of the stitched tiles, pixel for pixel, across the antimeridian too.
@Suite struct StaticImageTests {
    /// Points on both sides of the antimeridian (Fiji and Samoa).
    static let pacific: [WeightedLatLng] =
        Fixtures.cluster(latitude: -17.8, longitude: 178.4) + Fixtures.cluster(latitude: -13.8, longitude: -172.1)
        + Fixtures.cluster(latitude: -16.5, longitude: 179.9, count: 20)

    /// The image cut from the layer's tiles laid side by side, computed here: world pixel
    /// (x, y) of the image's top-left from the centre's pixel, x wrapping, rows off the world
    /// transparent.
    func stitched(_ layer: any TileLayer, _ viewport: Viewport) throws -> [UInt8] {
        let side = 256 * viewport.scale
        let world = side << viewport.zoom
        let shift = UInt64(32 - (8 + viewport.zoom + (viewport.scale == 2 ? 1 : 0)))
        let unitX = UInt64(WebMercator.unitX(longitude: viewport.center.longitude))
        let unitY = UInt64(WebMercator.unitY(latitude: viewport.center.latitude))
        // World pixel of a unit: unit × world / 2^32 (exact: world is 2^k, or 3 × 2^k at scale 3).
        let centreX = viewport.scale == 3 ? Int((unitX * UInt64(world)) >> 32) : Int(unitX >> shift)
        let centreY = viewport.scale == 3 ? Int((unitY * UInt64(world)) >> 32) : Int(unitY >> shift)
        let width = viewport.width * viewport.scale
        let height = viewport.height * viewport.scale
        let left = centreX - width / 2
        let top = centreY - height / 2
        let across = 1 << viewport.zoom
        var fetched = [Bool](repeating: false, count: across * across)
        var tiles = [RGBAImage?](repeating: nil, count: across * across)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let y = top + row
            guard y >= 0, y < world else { continue }
            for column in 0..<width {
                let x = ((left + column) % world + world) % world
                let index = (y / side) * across + x / side
                if !fetched[index] {
                    let request = TileRequest(x: x / side, y: y / side, zoom: viewport.zoom, scale: viewport.scale)
                    tiles[index] = try layer.tileFor(request).decoded
                    fetched[index] = true
                }
                guard let tile = tiles[index] else { continue }
                let source = ((y % side) * side + x % side) * 4
                for k in 0..<4 { out[(row * width + column) * 4 + k] = tile.pixels[source + k] }
            }
        }
        return out
    }

    @Test(
        "a base (file://) and heatmap stack across the antimeridian equals the crop of its stitched tiles",
        arguments: [(4, 1), (4, 2), (5, 3), (2, 2)])
    func antimeridian(zoom: Int, scale: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let across = 1 << zoom
        // Base tiles on both edges of the world, some rows missing (no tile: transparent).
        var written: [(x: Int, y: Int)] = []
        for x in [0, 1, across - 2, across - 1] { for y in (across / 2)..<(across / 2 + 2) { written.append((x, y)) } }
        let template = try writeSyntheticBase(in: folder, zoom: zoom, tiles: written)
        let base = try URLTileLayer(template: template, name: "base", opacity: 0.8)
        let stack = TileStack([base, HeatmapTileLayer(weightedData: Self.pacific)])
        let viewport = Viewport(
            center: Coordinate(latitude: -16, longitude: 179.7), zoom: zoom, width: 500, height: 200, scale: scale)
        let expected = try await onThread { try self.stitched(stack, viewport) }
        let image = try #require(try await onThread { try stack.imageFor(viewport) })
        #expect(image.width == 500 * scale && image.height == 200 * scale)
        let difference = CompositeReference.difference(image.pixels, expected, side: image.width)
        #expect(difference.count == 0, "\(difference.count) pixels differ, first \(difference.first ?? "")")
        #expect(expected.contains { $0 != 0 }, "the image is not empty")
        let asynchronous = try #require(try await stack.image(viewport))
        #expect(asynchronous.pixels == image.pixels)
    }

    @Test("at zoom 0 a wide, tall viewport repeats the world east-west and is transparent north and south of it")
    func wholeWorld() throws {
        let heat = HeatmapTileLayer(weightedData: Fixtures.policeStations + Self.pacific)
        let viewport = Viewport(center: Coordinate(latitude: 10, longitude: -30), zoom: 0, width: 700, height: 400)
        let image = try #require(try heat.imageFor(viewport))
        #expect(image.pixels == (try stitched(heat, viewport)))
        #expect(image[0, 0].alpha == 0 && image[0, 399].alpha == 0)
    }

    @Test("a layer's opacity is applied, its tiles scaled to 256 × scale, and a tile not yet makes no image")
    func opacityAndScaling() throws {
        let png = try Upstream.solidPNG(side: 256, red: 200, green: 100, blue: 50, alpha: 255)
        let layer = ClosureTileLayer(name: "half", opacity: 0.5) { _ in .image(png) }
        let image = try #require(
            try layer.imageFor(
                Viewport(center: Coordinate(latitude: 0, longitude: 0), zoom: 2, width: 10, height: 10, scale: 2)))
        #expect(image.width == 20)
        #expect(image[3, 3] == (200, 100, 50, 128))
        let later = ClosureTileLayer { _ in .notAvailableYet }
        #expect(
            try later.imageFor(Viewport(center: Coordinate(latitude: 0, longitude: 0), zoom: 1, width: 5, height: 5))
                == nil)
    }

    @Test("bad viewports are named")
    func invalid() {
        let heat = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        let centre = Coordinate(latitude: 0, longitude: 0)
        #expect(throws: TileLayerError.invalidViewport("zoom 23 is outside 0...22")) {
            try heat.imageFor(Viewport(center: centre, zoom: 23, width: 10, height: 10))
        }
        #expect(throws: TileLayerError.self) {
            try heat.imageFor(Viewport(center: centre, zoom: 1, width: 0, height: 10))
        }
        #expect(throws: TileLayerError.self) {
            try heat.imageFor(Viewport(center: centre, zoom: 1, width: 3000, height: 10, scale: 2))
        }
        #expect(throws: TileLayerError.self) {
            try heat.imageFor(Viewport(center: Coordinate(latitude: 91, longitude: 0), zoom: 1, width: 10, height: 10))
        }
        #expect(throws: TileLayerError.self) {
            try heat.imageFor(
                Viewport(center: Coordinate(latitude: 0, longitude: .nan), zoom: 1, width: 10, height: 10))
        }
    }
}
