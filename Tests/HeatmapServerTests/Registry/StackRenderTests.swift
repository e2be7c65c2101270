import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// One registry of layers: a stack of a `file://` base layer and a heatmap, from one
/// configuration file, rendered by `heatmap render` and served by `heatmap serve` (the same
/// bytes for every tile), and a live change that drops just the tiles it reaches, the
/// heatmap's own and the stack's alike.
@Suite struct StackRenderTests {
    static let secret = "t0ken-stack-render"
    /// Victoria, Australia: the police stations and the base tiles under them.
    static let area = PointBounds(south: -39.2, west: 140.9, north: -33.9, east: 150.0)
    static let zooms = 4...7

    /// Base tiles of `zooms` over the area, each a colour of its own (so a misplaced one shows).
    static func writeBase(in folder: TemporaryFolder) throws {
        let area = TileArea(Self.area)
        for zoom in zooms {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) where area.contains(TileCoordinate(zoom: zoom, x: x, y: y)) {
                    var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
                    for i in stride(from: 0, to: pixels.count, by: 4) {
                        let row = i / 1024
                        pixels[i] = UInt8(truncatingIfNeeded: x * 40 + row)
                        pixels[i + 1] = UInt8(truncatingIfNeeded: y * 40)
                        pixels[i + 2] = UInt8(truncatingIfNeeded: zoom * 30)
                        pixels[i + 3] = 255
                    }
                    let image = try #require(RGBAImage(width: 256, height: 256, pixels: pixels))
                    try folder.write(try PNGEncoder().encode(image), to: "base/\(zoom)/\(x)/\(y).png")
                }
            }
        }
    }

    @Test(
        "a stack of a file:// base and a heatmap renders to MBTiles as the server answers it; a POST drops only the tiles it reaches"
    )
    func renderedAsServed() throws {
        let folder = try TemporaryFolder("stack-render")
        defer { folder.remove() }
        try Self.writeBase(in: folder)
        let data = try TestServer.fixturePath()
        let config = folder.file("serve.json")
        try Data(
            """
            {"layers": [{"name": "base", "url": "file://\(folder.path)/base/{z}/{x}/{y}.png"},
                        {"name": "police", "file": "\(data)", "gradient": "fire", "radius": 25}],
             "stacks": [{"name": "map", "layers": ["base", "police"]}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        try Data("\(Self.secret)\n".utf8).write(to: URL(fileURLWithPath: folder.file("token")))
        let output = folder.file("map.mbtiles")
        let bounds = "\(Self.area.west),\(Self.area.south),\(Self.area.east),\(Self.area.north)"
        let render = try TestProgram.heatmap([
            "render", "--config", config, "--layer", "map", "--zoom", "4-7", "--bounds", bounds, "--output", output,
            "--quiet",
        ])
        #expect(render.status == 0, "\(render.standardError)")
        // Without --bounds, a stack holding a URL layer cannot be walked: refused, naming why.
        let unbounded = try TestProgram.heatmap([
            "render", "--config", config, "--layer", "map", "--zoom", "4-7", "--output", folder.file("x.mbtiles"),
        ])
        #expect(unbounded.status == 64 && unbounded.standardError.contains("--bounds"), "\(unbounded.standardError)")

        let process = Process()
        process.executableURL = TestProgram.heatmap
        process.arguments = [
            "serve", "--config", config, "--port", "0", "--write-token-file", folder.file("token"), "--base-map", "",
        ]
        process.standardError = Pipe()
        let (_, started) = try process.runServing()
        defer { if process.isRunning { process.terminate() } }
        let client = try TestClient(port: try #require(started), timeout: 30)

        // Every tile of the walk: the archive's bytes are the server's, and what it left out is 204.
        let reader = try MBTilesReader(path: output)
        let area = TileArea(Self.area)
        var stored = 0
        for zoom in Self.zooms {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) where area.contains(TileCoordinate(zoom: zoom, x: x, y: y)) {
                    let served = try client.get("/map/\(zoom)/\(x)/\(y).png")
                    if let bytes = try reader.tileData(z: zoom, x: x, y: y) {
                        stored += 1
                        #expect(served.status == 200 && served.body == bytes, "\(zoom)/\(x)/\(y)")
                    } else {
                        #expect(served.status == 204, "\(zoom)/\(x)/\(y)")
                    }
                }
            }
        }
        #expect(stored > 20)

        // A point in the north-east (tile 7/116/77, 59 pixels from its west edge: the radius of 25 reaches no
        // other tile of zoom 7), far from the brightest pixels, so M(z) stays.
        let (changed, elsewhere) = ("7/116/77", "7/115/78")
        var before: [String: String] = [:]
        for path in [
            "/police/\(changed).png", "/map/\(changed).png", "/police/\(elsewhere).png", "/map/\(elsewhere).png",
        ] {
            before[path] = try client.get(path).header("ETag")
        }
        let body = Array("lat,lng,weight\n-36.12,146.88,0.5\n".utf8)
        var post = "POST /police/points HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        post += "Authorization: Bearer \(Self.secret)\r\nContent-Type: text/csv\r\n\r\n"
        try client.send(Array(post.utf8) + body)
        let answer = try client.read()
        #expect(answer.status == 200, "\(answer.text)")
        // Dropped: the heatmap's tile over the point, and the stack's tiles its 25-point reach meets at every
        // zoom cached, 4/14/9, 5/28/19 and 5/29/19 (the point is 14 pixels into 29), 6/58/38 and 7/116/77.
        let reply = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(reply?["tilesDropped"] as? Int == 6, "\(answer.text)")
        // Over the point: the heatmap's tile and the stack's both change.
        #expect(try client.get("/police/\(changed).png").header("ETag") != before["/police/\(changed).png"])
        #expect(try client.get("/map/\(changed).png").header("ETag") != before["/map/\(changed).png"])
        // Elsewhere: both stay cached, answered as hits with their bytes.
        let hits = try Self.metric(client, "heatmap_tile_cache_hits_total")
        #expect(try client.get("/police/\(elsewhere).png").header("ETag") == before["/police/\(elsewhere).png"])
        #expect(try client.get("/map/\(elsewhere).png").header("ETag") == before["/map/\(elsewhere).png"])
        #expect(try Self.metric(client, "heatmap_tile_cache_hits_total") == hits + 2)
        process.terminate()
        process.waitUntilExit()
    }

    static func metric(_ client: TestClient, _ name: String) throws -> Double {
        let text = try client.get("/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }
}
