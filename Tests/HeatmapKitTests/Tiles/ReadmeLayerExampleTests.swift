import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// README's layers example, as written there (offline: the base's files do not exist, so it
/// answers no tile, and nothing asks the OpenStreetMap layer).
@Suite struct ReadmeLayerExampleTests {
    func fetchTile(_ tile: TileRequest) async throws -> TileResult { .noTile }

    @Test("README's layers, stack and static image work as written")
    func example() async throws {
        let australia = try Upstream.solidPNG(side: 256, red: 0, green: 128, blue: 0, alpha: 255)
        let points = Fixtures.policeStations

        let odd = ClosureTileLayer(name: "odd") { tile in tile.x % 2 == 1 ? .image(australia) : .noTile }
        let later = ClosureTileLayer(name: "later", async: { tile in try await fetchTile(tile) })

        let osm = URLTileLayer(name: "osm") { x, y, zoom in
            URL(string: "https://tile.openstreetmap.org/\(zoom)/\(x)/\(y).png")
        }
        let base = try URLTileLayer(template: "file:///srv/tiles/{z}/{x}/{y}.png", name: "base", opacity: 0.8)
        let heatmap = HeatmapTileLayer(weightedData: points)
        let map = TileStack([base, heatmap])  // the heatmap over the base, one PNG a tile
        let tile = try await onThread { try map.tileFor(TileRequest(x: 924, y: 628, zoom: 10, scale: 2)) }  // 512 × 512
        let picture = try await onThread {
            try map.imageFor(  // RGBAImage, or nil while a tile is not available yet
                Viewport(
                    center: Coordinate(latitude: -37.81, longitude: 144.96), zoom: 10, width: 600, height: 400, scale: 2
                )
            )
        }
        #expect(tile.decoded?.width == 512)
        #expect(picture?.width == 1200 && picture?.height == 800)
        #expect(try odd.tileFor(TileRequest(x: 1, y: 0, zoom: 1)) == .image(australia))
        #expect(try await later.tile(TileRequest(x: 0, y: 0, zoom: 0)) == .noTile)
        #expect(osm.name == "osm" && osm.tileSize == 256)
        #expect(TestTileLayer(australia: australia).tileFor(TileRequest(x: 1, y: 0, zoom: 1)) == .image(australia))
    }
}
