import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

@Suite struct ConfigurationSettingsTests {
    /// Every settings key, once, with a value that is not its default.
    static let everyKey = """
        "radius": 30, "opacity": 0.5, "gradient": "fire", "maxIntensity": 4, "colorScale": "sqrt",
        "colorMapSize": 64, "minZoomIntensity": 3, "maxZoomIntensity": 9, "maxPercentile": 99.5,
        "radiusMeters": 500, "radiusLatitude": -37.5, "aggregate": "mean", "value": "price",
        "minDensity": 0.25, "valueRange": [10, 90], "datetime": "2024-01-01/2024-07-01",
        "category": "kind:theft,fraud", "scaleOf": "all"
        """

    static let expected = ServeConfiguration.LayerSettings(
        [
            "radius": "30", "opacity": "0.5", "gradient": "fire", "max-intensity": "4", "color-scale": "sqrt",
            "color-map-size": "64", "min-zoom-intensity": "3", "max-zoom-intensity": "9", "max-percentile": "99.5",
            "radius-meters": "500", "radius-latitude": "-37.5", "aggregate": "mean", "min-density": "0.25",
            "value-range": "10,90", "datetime": "2024-01-01/2024-07-01", "category": "kind:theft,fraud",
            "scale-of": "all",
        ], value: "price")

    @Test("every settings key decodes the same in defaults and inline in a layer, beside name, file and url")
    func everyKeyThroughBothPaths() throws {
        let folder = try TemporaryFolder("config-keys")
        defer { folder.remove() }
        let path = folder.file("serve.json")
        let text = """
            {"defaults": {\(Self.everyKey)},
             "layers": [{"name": "all", "file": "all.csv", \(Self.everyKey)},
                        {"name": "osm", "url": "https://tile.example.org/{z}/{x}/{y}.png"}]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try ServeConfiguration.load(path: path)
        let defaults = try #require(configuration.defaults)
        let layers = try #require(configuration.layers)
        #expect(defaults == Self.expected)
        #expect(layers[0].settings == Self.expected)
        #expect(layers[0].name == "all" && layers[0].file == folder.path + "/all.csv" && layers[0].url == nil)
        #expect(layers[1].settings == ServeConfiguration.LayerSettings(), "a URL layer sets nothing")
        // The expected value sets every setting, so a setting added later without a test here fails.
        let unset = SettingsSchema.rows.map(\.name).filter { Self.expected.given[$0] == nil }
        #expect(unset.isEmpty, "settings not covered: \(unset)")
        // Both decode to settings that apply the same.
        let fromDefaults = try defaults.applied(to: .default)
        let fromLayer = try layers[0].settings.applied(to: .default)
        #expect(fromDefaults == fromLayer)
        #expect(fromLayer.radius == 30 && fromLayer.opacity == 0.5 && fromLayer.radiusMeters == 500)
        #expect(fromLayer.aggregate == .mean && fromLayer.valueRange == 10...90 && fromLayer.minimumDensity == 0.25)
    }

    @Test("a settings key of the wrong type in a layer names the key")
    func wrongTypeInALayer() throws {
        let path = TestScratch.folder.appendingPathComponent("heatmap-config-type-\(getpid()).json")
        try Data(#"{"layers": [{"file": "a.json", "radius": "big"}]}"#.utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        // Read as the flag and the query parameter read it: the message names the setting.
        let layer = try #require(try ServeConfiguration.load(path: path.path).layers?.first)
        do {
            _ = try layer.settings.applied(to: .default)
            Issue.record("a string radius was accepted")
        } catch {
            #expect(error.description == #"radius "big" is not a whole number in 10...50"#, "\(error.description)")
        }
    }
}
