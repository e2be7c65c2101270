import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// `/{layer}@2x.json` of pre-rendered layers: served when the archive holds tiles of that scale,
/// else 404 naming the scale it has.
@Suite struct StoredScaleTests {
    @Test("a stored layer answers the TileJSON of its own scale and 404 with a reason for others")
    func perScaleTileJSON() throws {
        let path = try TestServer.fixturePath()
        let data = try TestServer.load(path)
        let folder = TestScratch.folder.appendingPathComponent("heatmap-scale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var stored: [StoredLayer] = []
        for scale in [1, 2] {
            let directory = folder.appendingPathComponent("s\(scale)").path
            let metadata = TileMetadata(
                name: "s\(scale)", bounds: PointBounds(south: -39, west: 141, north: -34, east: 150),
                center: TileCenter(longitude: 145, latitude: -37, zoom: 2), minZoom: 0, maxZoom: 2, scale: scale)
            let sink = try TileFolderWriter(path: directory, metadata: metadata, mode: .create)
            let walk = try PyramidWalk(index: data.index, zooms: 0...2, scale: scale, radius: 20)
            let layer = HeatmapTileLayer(index: data.index, cacheBytes: 0)
            _ = try PyramidRenderer(layer: layer, walk: walk, scale: scale, jobs: 1).render(
                into: sink, progress: RenderProgress())
            stored.append(
                try StoredLayer(name: "s\(scale)", source: directory, reader: try TileArchive.open(directory)))
        }
        let stats = ServerStats()
        let service = try TileService(layers: [], stored: stored, stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: service, stats: stats)
        server.start()
        defer {
            server.shutdown(grace: 2)
            server.waitUntilStopped()
        }
        // Stored tiles are read on Dispatch's global queue, shared in a full test run with every
        // other suite: a generous bound on each answer rather than the default 10 s.
        let client = try TestClient(port: server.port, timeout: 60)
        func object(_ path: String) throws -> [String: Any] {
            let response = try client.get(path)
            #expect(response.status == 200, "\(path)")
            return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        }
        let base = "http://127.0.0.1/"
        let plain = try object("/s1.json")
        #expect(plain["tileSize"] as? Int == 256)
        #expect(plain["tiles"] as? [String] == [base + "s1/{z}/{x}/{y}.png"])
        #expect(plain["scales"] as? [String] == [base + "s1.json"])
        for path in ["/s2.json", "/s2@2x.json"] {
            let sharp = try object(path)
            #expect(sharp["tileSize"] as? Int == 512, "\(path)")
            #expect(sharp["tiles"] as? [String] == [base + "s2/{z}/{x}/{y}@2x.png"], "\(path)")
            #expect(sharp["scales"] as? [String] == [base + "s2@2x.json"], "\(path)")
        }
        let tile = try client.get("/s2/2/3/2@2x.png")
        #expect(tile.status == 200 && pngWidth(tile.body) == 512)
        for (path, reason) in [
            ("/s1@2x.json", "scale 1 only"), ("/s1@3x.json", "scale 1 only"), ("/s2@3x.json", "scale 2 only"),
        ] {
            let refused = try client.get(path)
            #expect(refused.status == 404, "\(path)")
            #expect(refused.text.contains(reason) && refused.text.contains("no @"), "\(path): \(refused.text)")
        }
    }
}
