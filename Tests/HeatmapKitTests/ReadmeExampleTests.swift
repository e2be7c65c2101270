import HeatmapKit
import Testing

/// README's library example, as written there, so that it keeps compiling and working.
@Suite struct ReadmeExampleTests {
    @Test("README's example draws Melbourne at 512 pixels")
    func example() async throws {
        let layer = HeatmapTileLayer()
        layer.weightedData = [
            WeightedLatLng(coordinate: Coordinate(latitude: -37.8136, longitude: 144.9631)),
            WeightedLatLng(coordinate: Coordinate(latitude: -37.8200, longitude: 144.9700), intensity: 3),
        ]
        layer.radius = 30  // points, 10...50, default 20
        layer.opacity = 0.8  // default 0.7
        layer.gradient = try Gradient(
            colors: [RGBAColor(red: 0, green: 0, blue: 255), RGBAColor(red: 255, green: 0, blue: 0)],
            startPoints: [0.1, 1], colorMapSize: 256)

        let result = try layer.tileFor(x: 924, y: 628, zoom: 10, scale: 2)  // 512 × 512 pixels
        let image = try #require(result.decoded)
        #expect(image.width == 512)
        let tile = try await layer.tile(x: 924, y: 628, zoom: 10)  // the same, off the caller's thread
        #expect(tile.decoded?.width == 256)
    }
}
