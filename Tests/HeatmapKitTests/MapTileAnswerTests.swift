import HeatmapCore
import HeatmapKit
import HeatmapMapKit
import Testing

/// What the MapKit overlay (compiled only on Apple platforms) answers MapKit, tested here.
@Suite struct MapTileAnswerTests {
    @Test("contentScaleFactor becomes scale 1, 2 or 3; no tile is no bytes; not yet is an error to retry")
    func answers() throws {
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: 2).scale == 2)
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: 1).scale == 1)
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: 3).scale == 3)
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: 2.6).scale == 3)
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: 0).scale == 1)
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: 4).scale == 3)
        #expect(MapTileAnswer.request(x: 3, y: 4, zoom: 5, contentScaleFactor: .nan).scale == 1)
        let request = TileRequest(x: 1, y: 2, zoom: 3)
        #expect(try MapTileAnswer.bytes(.image([1, 2, 3]), for: request) == [1, 2, 3])
        #expect(try MapTileAnswer.bytes(.noTile, for: request) == [])
        let error = #expect(throws: MapTileAnswer.NotAvailableYet.self) {
            try MapTileAnswer.bytes(.notAvailableYet, for: request)
        }
        #expect(error?.tile == "3/1/2")
    }

    @Test("a heatmap's tile at scale 2 is the PNG the layer draws at 512 px; an empty place gives no bytes")
    func heatmapTiles() async throws {
        let layer = HeatmapTileLayer(weightedData: [
            WeightedLatLng(coordinate: Coordinate(latitude: 51.5, longitude: -0.12))
        ])
        let png = try await MapTileAnswer.bytes(of: layer, x: 511, y: 340, zoom: 10, contentScaleFactor: 2)
        let image = try PNGDecoder.decode(png)
        #expect(image.width == 512 && image.height == 512)
        #expect(try await MapTileAnswer.bytes(of: layer, x: 0, y: 0, zoom: 10, contentScaleFactor: 2) == [])
    }
}
