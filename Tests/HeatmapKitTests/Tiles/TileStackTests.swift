import Foundation
import HeatmapKit
import HeatmapTestSupport
import Synchronization
import Testing

/// Stacks: a synthetic base from file:// URLs under the police stations' heatmap, against the
/// composite computed in the test; order, opacity, answers and clearing.
@Suite struct TileStackTests {
    static let tile = (zoom: 6, x: 57, y: 39)

    func heatmap() -> HeatmapTileLayer { HeatmapTileLayer(weightedData: Fixtures.policeStations) }

    @Test(
        "base (file://, opacity 0.6) under the heatmap equals the composite computed here, pixel for pixel",
        arguments: [1, 2, 3])
    func composite(scale: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = try writeSyntheticBase(in: folder, zoom: Self.tile.zoom, tiles: [(Self.tile.x, Self.tile.y)])
        let base = try URLTileLayer(template: template, name: "base", opacity: 0.6)
        let heat = heatmap()
        let stack = TileStack([base, heat])
        #expect(stack.name == "base+heatmap")
        let request = TileRequest(x: Self.tile.x, y: Self.tile.y, zoom: Self.tile.zoom, scale: scale)
        let side = 256 * scale
        #expect(stack.imageSize(scale: scale) == side)
        let heatImage = try #require(try heat.tileFor(request).decoded)
        let baseImage = syntheticTile(x: Self.tile.x, y: Self.tile.y, zoom: Self.tile.zoom)
        let expected = CompositeReference.over(
            [(CompositeReference.upscaled(baseImage, by: scale), 0.6), (heatImage, 1)], side: side)
        let image = try #require(try await onThread { try stack.tileFor(request) }.decoded)
        #expect(image.width == side && image.height == side)
        let difference = CompositeReference.difference(image.pixels, expected, side: side)
        #expect(difference.count == 0, "\(difference.count) pixels differ, first \(difference.first ?? "")")
        // The asynchronous request draws the same (from a fresh stack, not the cache).
        let fresh = try #require(try await TileStack([base, heat]).tile(request).decoded)
        #expect(fresh.pixels == image.pixels)
    }

    @Test("zIndex orders layers (higher over lower); equal zIndex keeps the order given; opacity 0 hides a layer")
    func order() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = try writeSyntheticBase(in: folder, zoom: Self.tile.zoom, tiles: [(Self.tile.x, Self.tile.y)])
        let base = try URLTileLayer(template: template, name: "base", opacity: 0.9)
        let heat = heatmap()
        let request = TileRequest(x: Self.tile.x, y: Self.tile.y, zoom: Self.tile.zoom)
        let heatImage = try #require(try heat.tileFor(request).decoded)
        let baseImage = syntheticTile(x: Self.tile.x, y: Self.tile.y, zoom: Self.tile.zoom)
        let baseOver = CompositeReference.over([(heatImage, 1), (baseImage, 0.9)], side: 256)
        let heatOver = CompositeReference.over([(baseImage, 0.9), (heatImage, 1)], side: 256)
        #expect(baseOver != heatOver)
        #expect(try TileStack([heat, base]).tileFor(request).decoded?.pixels == baseOver)
        let stack = TileStack([base, heat])
        #expect(try stack.tileFor(request).decoded?.pixels == heatOver)
        base.zIndex = 1  // now over the heatmap, whatever the order given
        #expect(try stack.tileFor(request).decoded?.pixels == baseOver)
        base.opacity = 0
        // The heatmap alone, its transparent pixels made (0, 0, 0, 0).
        #expect(try stack.tileFor(request).decoded?.pixels == CompositeReference.over([(heatImage, 1)], side: 256))
        base.opacity = 1.5
        #expect(throws: TileLayerError.invalidOpacity(layer: "base", opacity: 1.5)) { try stack.tileFor(request) }
    }

    @Test("no tile when every layer has none; not available yet when any layer is not yet")
    func answers() throws {
        let png = try Upstream.solidPNG(side: 256, red: 1, green: 2, blue: 3, alpha: 255)
        let none = ClosureTileLayer(name: "none") { _ in .noTile }
        let later = ClosureTileLayer(name: "later") { _ in .notAvailableYet }
        let image = ClosureTileLayer(name: "image") { _ in .image(png) }
        let request = TileRequest(x: 0, y: 0, zoom: 0)
        #expect(try TileStack([none, heatmap()]).tileFor(TileRequest(x: 0, y: 0, zoom: 7)) == .noTile)
        #expect(try TileStack([]).tileFor(request) == .noTile)
        #expect(try TileStack([image, later]).tileFor(request) == .notAvailableYet)
        #expect(try TileStack([none, later]).tileFor(request) == .notAvailableYet)
        #expect(try TileStack([none, image]).tileFor(request).decoded == (try PNGDecoder.decode(png)))
        #expect(throws: TileLayerError.self) { try TileStack([image]).tileFor(TileRequest(x: 1, y: 0, zoom: 0)) }
    }

    @Test("a layer whose image is not its tile size is an error naming it")
    func wrongSize() throws {
        let big = try Upstream.solidPNG(side: 512, red: 1, green: 2, blue: 3, alpha: 255)
        let liar = ClosureTileLayer(name: "liar") { _ in .image(big) }  // says 256, answers 512
        let garbage = ClosureTileLayer(name: "garbage") { _ in .image(Array("nope".utf8)) }
        let request = TileRequest(x: 0, y: 0, zoom: 0)
        #expect(throws: TileLayerError.wrongImageSize(layer: "liar", expected: 256, width: 512, height: 512)) {
            try TileStack([heatmap(), liar]).tileFor(request)
        }
        do {
            _ = try TileStack([garbage]).tileFor(request)
            Issue.record("garbage must be an error")
        } catch {
            #expect("\(error)".contains("layer garbage"), "\(error)")
        }
        let failing = ClosureTileLayer(name: "failing") { _ in throw HeatmapError.invalidRadius(3) }
        #expect(throws: TileLayerError.layerFailed(layer: "failing", reason: "radius 3 is outside 10...50 points")) {
            try TileStack([failing]).tileFor(request)
        }
        // A 512 px layer is fine when it says so, and a 256 px one under it is scaled up.
        let honest = ClosureTileLayer(name: "honest", tileSize: 512) { _ in .image(big) }
        let stack = TileStack([heatmap(), honest])
        #expect(stack.imageSize(scale: 1) == 512)
        #expect(try stack.tileFor(request).decoded?.width == 512)
    }

    @Test("clearTileCache() on a layer drops its tiles and the stack's, and no other layer's")
    func clearing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = try writeSyntheticBase(in: folder, zoom: 0, tiles: [(0, 0)])
        let base = try URLTileLayer(template: template, name: "base")
        let calls = Mutex(0)
        let dot = try Upstream.solidPNG(side: 256, red: 0, green: 0, blue: 0, alpha: 100)
        let top = ClosureTileLayer(name: "top") { _ in
            calls.withLock { $0 += 1 }
            return .image(dot)
        }
        let stack = TileStack([base, top])
        let request = TileRequest(x: 0, y: 0, zoom: 0)
        let first = try stack.tileFor(request)
        _ = try stack.tileFor(request)
        #expect(calls.withLock { $0 } == 1, "the stack's cache answered the second time")
        // The base's file goes; its cached tile stays until the base's cache is cleared.
        try FileManager.default.removeItem(atPath: folder.path + "/0/0/0.png")
        top.clearTileCache()
        #expect(try stack.tileFor(request) == first, "the base answered from its cache")
        #expect(calls.withLock { $0 } == 2, "the stack asked the cleared layer again")
        base.clearTileCache()
        let topOnly = try #require(try stack.tileFor(request).decoded)
        #expect(topOnly == (try PNGDecoder.decode(dot)))
        #expect(calls.withLock { $0 } == 3, "the stack, cleared through the base, asked the top layer again")
    }
}
