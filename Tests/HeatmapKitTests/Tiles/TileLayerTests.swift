import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// README's layer in the style of Google's TestTileLayer: an image on every odd tile.
struct TestTileLayer: SyncTileLayer {
    let australia: [UInt8]  // a 256 px PNG
    func tileFor(_ tile: TileRequest) -> TileResult {
        tile.x % 2 == 1 ? .image(australia) : .noTile  // on every odd tile, an image
    }
}

/// A layer that answers later, as Google's `requestTileForX:y:zoom:receiver:`.
struct LaterTileLayer: AsyncTileLayer {
    let png: [UInt8]
    var delay: Duration = .zero
    var synchronousTimeout: Double = 10
    func tile(_ tile: TileRequest) async throws -> TileResult {
        try await Task.sleep(for: delay)
        return tile.y == 0 ? .image(png) : .noTile
    }
}

/// The protocol, its defaults, custom layers of every flavour, and the heatmap as a layer.
@Suite struct TileLayerTests {
    let png: [UInt8]

    init() throws { png = try Upstream.solidPNG(side: 256, red: 10, green: 200, blue: 30, alpha: 255) }

    @Test("a TestTileLayer-style layer answers both ways, with Google's defaults")
    func syncLayer() async throws {
        let layer = TestTileLayer(australia: png)
        #expect(layer.tileFor(TileRequest(x: 1, y: 0, zoom: 1)) == .image(png))
        #expect(layer.tileFor(TileRequest(x: 0, y: 0, zoom: 1)) == .noTile)
        #expect(try await layer.tile(TileRequest(x: 3, y: 0, zoom: 2)) == .image(png))
        #expect(layer.name == "TestTileLayer")
        #expect(layer.tileSize == 256 && layer.zIndex == 0 && layer.opacity == 1 && !layer.imagesIncludeOpacity)
        #expect(layer.imageSize(scale: 2) == 256)
        layer.clearTileCache()
        #expect(layer.cacheGeneration == 0)
    }

    @Test("an asynchronous layer answers synchronously too, and a synchronous wait is bounded")
    func asyncLayer() async throws {
        let layer = LaterTileLayer(png: png)
        #expect(try await layer.tile(TileRequest(x: 0, y: 0, zoom: 0)) == .image(png))
        #expect(try await onThread { try layer.tileFor(TileRequest(x: 0, y: 0, zoom: 0)) } == .image(png))
        let slow = LaterTileLayer(png: png, delay: .seconds(30), synchronousTimeout: 0.2)
        #expect(try await onThread { try slow.tileFor(TileRequest(x: 0, y: 0, zoom: 0)) } == .notAvailableYet)
    }

    @Test(
        "a synchronous request to an asynchronous layer answers while blocking work holds every thread of the task pool"
    )
    func poolHeld() async throws {
        // The answer needs threads that the rest of a full test run competes for: dispatch's, and
        // the global executor's, where the tile's `Task.sleep` may resume (swiftlang/swift#74395),
        // held by the blocking tasks and by other suites' synchronous tests. Under load it was
        // seen to take over 15 s, so the layer's wait, the bound of that condition, is generous:
        // a tile that never comes still ends the test, as not available yet, after 120 s.
        let layer = LaterTileLayer(png: png, synchronousTimeout: 120)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            Task.detached {
                held.signal()
                _ = release.wait(timeout: .now() + 180)  // blocks a thread of the pool, at most 180 s
            }
        }
        let answer = try await onThread { () throws -> TileResult in
            // Until the blocking tasks hold their threads, at most 30 s in all: in a full test run
            // other suites' synchronous tests hold threads of the pool too, and a blocking task
            // left waiting for one means the pool is full all the same.
            let deadline = DispatchTime.now() + 30
            for _ in 0..<threads { _ = held.wait(timeout: deadline) }
            defer { for _ in 0..<threads { release.signal() } }
            return try layer.tileFor(TileRequest(x: 0, y: 0, zoom: 0))
        }
        let answered = answer == .image(png)
        #expect(answered, "answered \(answer == .notAvailableYet ? "not available yet" : "another image")")
    }

    @Test("closure layers, synchronous and asynchronous, in a stack")
    func closures() async throws {
        let sync = ClosureTileLayer(name: "sync", zIndex: 1, opacity: 0.5) { tile in
            tile.x == 0 ? .image(png) : .noTile
        }
        let later = ClosureTileLayer(
            name: "later",
            async: { tile in
                try await Task.sleep(for: .milliseconds(1))
                return tile.x == 0 ? .image(png) : .noTile
            })
        let request = TileRequest(x: 0, y: 0, zoom: 1)
        #expect(try sync.tileFor(request) == .image(png))
        #expect(try await sync.tile(request) == .image(png))
        #expect(try await later.tile(request) == .image(png))
        #expect(try await onThread { try later.tileFor(request) } == .image(png))
        let generation = later.cacheGeneration
        later.clearTileCache()
        #expect(later.cacheGeneration == generation + 1)
        let stack = TileStack([sync, later])
        let image = try #require(try await stack.tile(request).decoded)
        let expected = CompositeReference.over(
            [(try PNGDecoder.decode(png), 1), (try PNGDecoder.decode(png), 0.5)], side: 256)
        #expect(image.pixels == expected)
        #expect(try await stack.tile(TileRequest(x: 1, y: 0, zoom: 1)) == .noTile)
    }

    @Test("the heatmap is a layer: the same tiles, 256 × scale pixels, opacity in its images, generations")
    func heatmap() async throws {
        let heat = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        let layer: any TileLayer = heat
        for scale in 1...3 {
            let request = TileRequest(x: 57, y: 39, zoom: 6, scale: scale)
            #expect(try layer.tileFor(request) == (try heat.tileFor(x: 57, y: 39, zoom: 6, scale: scale)))
            #expect(try await layer.tile(request) == (try heat.tileFor(x: 57, y: 39, zoom: 6, scale: scale)))
            #expect(layer.imageSize(scale: scale) == 256 * scale)
        }
        #expect(layer.name == "heatmap" && layer.tileSize == 256 && layer.imagesIncludeOpacity)
        #expect(layer.opacity == 0.7)
        heat.zIndex = 3
        #expect(layer.zIndex == 3)
        var generation = layer.cacheGeneration
        heat.clearTileCache()
        #expect(layer.cacheGeneration != generation)
        generation = layer.cacheGeneration
        heat.radius = 25
        #expect(layer.cacheGeneration != generation)
        #expect(throws: HeatmapError.self) { try layer.tileFor(TileRequest(x: 64, y: 0, zoom: 6)) }
    }

    @Test("requests off the grid or at unsupported zooms and scales are named")
    func validation() {
        #expect(throws: TileLayerError.invalidRequest("zoom 23 is outside 0...22")) {
            try TileRequest(x: 0, y: 0, zoom: 23).validate()
        }
        #expect(throws: TileLayerError.invalidRequest("scale 4 is not 1, 2 or 3")) {
            try TileRequest(x: 0, y: 0, zoom: 1, scale: 4).validate()
        }
        #expect(throws: TileLayerError.self) { try TileRequest(x: -1, y: 0, zoom: 1).validate() }
        #expect(throws: TileLayerError.self) { try TileRequest(x: 0, y: 2, zoom: 1).validate() }
    }
}
