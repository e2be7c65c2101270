import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// Pre-rendered layers (MBTiles, PMTiles, a folder) served beside a live one on the same routes.
@Suite struct StoredLayerTests {
    /// The police stations rendered for zooms 0-7 into each kind of archive, and a server over
    /// them and the live layer.
    static func serve(_ body: (TestClient, [String]) throws -> Void) throws {
        let path = try TestServer.fixturePath()
        let data = try TestServer.load(path)
        let folder = TestScratch.folder.appendingPathComponent(
            "heatmap-stored-\(UUID().uuidString)"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let metadata = TileMetadata(
            name: "police", description: "rendered", attribution: "data.gov.au",
            bounds: PointBounds(south: -39, west: 141, north: -34, east: 150),
            center: TileCenter(longitude: 145, latitude: -37, zoom: 6), minZoom: 0, maxZoom: 7,
            options: ["radius": "20", "opacity": "0.7", "points": "345"])
        var stored: [StoredLayer] = []
        for (name, sink) in [
            ("mb", try MBTilesWriter(path: folder + ".mbtiles", metadata: metadata, mode: .create) as any TileSink),
            ("pm", try PMTilesWriter(path: folder + ".pmtiles", metadata: metadata, mode: .create)),
            ("dir", try TileFolderWriter(path: folder + "/dir", metadata: metadata, mode: .create)),
        ] {
            let walk = try PyramidWalk(index: data.index, zooms: 0...7, scale: 1, radius: 20)
            let layer = HeatmapTileLayer(index: data.index, cacheBytes: 0)
            _ = try PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: 2).render(
                into: sink, progress: RenderProgress())
            let file = name == "mb" ? folder + ".mbtiles" : name == "pm" ? folder + ".pmtiles" : folder + "/dir"
            stored.append(try StoredLayer(name: name, source: file, reader: try TileArchive.open(file)))
        }
        defer {
            try? FileManager.default.removeItem(atPath: folder + ".mbtiles")
            try? FileManager.default.removeItem(atPath: folder + ".pmtiles")
        }
        let live = try ServedLayer(name: "police", source: path, data: data)
        let stats = ServerStats()
        let service = try TileService(layers: [live], stored: stored, stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, responder: service, stats: stats)
        server.start()
        defer {
            server.shutdown(grace: 2)
            server.waitUntilStopped()
        }
        try body(try TestClient(port: server.port, timeout: 10), stored.map(\.name))
    }

    @Test("stored tiles are the live tiles' bytes, with the same ETags, 304 and 204")
    func tiles() throws {
        try Self.serve { client, names in
            for path in ["/6/57/39.png", "/7/115/78.png", "/3/7/4.png", "/0/0/0.png"] {
                let live = try client.get("/police" + path)
                #expect(live.status == 200)
                for name in names {
                    let response = try client.get("/\(name)" + path)
                    #expect(response.status == 200, "\(name)\(path)")
                    #expect(response.body == live.body, "\(name)\(path)")
                    #expect(response.header("Content-Type") == "image/png")
                    #expect(response.header("ETag") == live.header("ETag"))
                    let again = try client.get("/\(name)" + path, headers: ["If-None-Match": live.header("ETag") ?? ""])
                    #expect(again.status == 304)
                }
            }
            for name in names {
                #expect(try client.get("/\(name)/6/0/0.png").status == 204)
                #expect(try client.get("/\(name)/9/0/0.png").status == 204)  // beyond the zooms rendered
                #expect(try client.get("/\(name)/6/64/0.png").status == 400)
                #expect(try client.get("/\(name)/23/0/0.png").status == 400)
            }
        }
    }

    @Test("TileJSON and the catalog come from the archive's metadata")
    func tileJSON() throws {
        try Self.serve { client, names in
            for name in names {
                let response = try client.get("/\(name).json")
                #expect(response.status == 200)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
                #expect(json["name"] as? String == name)
                #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 7)
                #expect(json["attribution"] as? String == "data.gov.au")
                #expect(json["bounds"] as? [Double] == [141, -39, 150, -34])
                #expect(json["points"] as? Int == 345)
                #expect(json["tiles"] as? [String] == ["http://127.0.0.1/\(name)/{z}/{x}/{y}.png"])
            }
            let catalog = try JSONSerialization.jsonObject(with: Data(try client.get("/catalog").body))
            let layers = (catalog as? [String: Any])?["layers"] as? [[String: Any]] ?? []
            #expect(layers.compactMap { $0["name"] as? String } == ["police"] + names)
        }
    }
}
