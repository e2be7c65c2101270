import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

@Suite struct ConfigurationTests {
    @Test func readsAConfigurationFileWithRelativePaths() throws {
        let folder = try TemporaryFolder("config")
        defer { folder.remove() }
        let path = folder.file("serve.json")
        let text = """
            {"port": 9000, "cacheMB": 32, "cors": false, "attribution": "test",
             "defaults": {"radius": 25, "gradient": "ice"},
             "layers": [{"name": "police", "file": "police.json", "gradient": "0000ff:0.5,ff0000:1", "opacity": 0.5},
                        {"file": "/data/cities.json", "maxIntensity": 3}]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try ServeConfiguration.load(path: path)
        #expect(configuration.port == 9000 && configuration.cacheMB == 32 && configuration.cors == false)
        let layers = try #require(configuration.layers)
        #expect(layers[0].file == folder.path + "/police.json")
        #expect(layers[1].file == "/data/cities.json")
        let base = try #require(try configuration.defaults?.applied(to: .default))
        #expect(base.radius == 25 && base.gradient == GradientPresets.named("ice"))
        let first = try layers[0].settings.applied(to: base)
        #expect(first.radius == 25 && first.opacity == 0.5 && first.gradient.startPoints == [0.5, 1])
        #expect(try layers[1].settings.applied(to: base).maximumIntensity == 3)
    }

    @Test func namesWhatIsWrongWithABadFile() throws {
        #expect(throws: OverrideError.self) { try ServeConfiguration.load(path: "/nonexistent/serve.json") }
        let path = TestScratch.folder.appendingPathComponent("bad-\(getpid()).json").path
        try Data("{\"layers\": [{\"name\": 3}]}".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: OverrideError.self) { try ServeConfiguration.load(path: path) }
    }

    @Test func boundsAndCentre() throws {
        let data = try LayerData(points: [
            WeightedLatLng(coordinate: Coordinate(latitude: -38, longitude: 141)),
            WeightedLatLng(coordinate: Coordinate(latitude: -34, longitude: 150)),
        ])
        let bounds = try #require(data.bounds)
        #expect(bounds == PointBounds(south: -38, west: 141, north: -34, east: 150))
        #expect(bounds.center.longitude == 145.5 && bounds.center.latitude == -36)
        #expect((4...8).contains(bounds.center.zoom))
        // Across the antimeridian (west > east): the centre is between, not on the far side.
        let pacific = PointBounds(south: -20, west: 170, north: -10, east: -170)
        #expect(pacific.center.longitude == 180 || pacific.center.longitude == -180)
    }
}
