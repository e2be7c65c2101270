import HeatmapKit
import HeatmapServer
import Testing

/// `gradient=`, `color-map-size=`, `color-scale=` and `min-`/`max-zoom-intensity=` through the
/// server: the same bytes as the library, named errors, the map page's controls.
@Suite struct ColorScaleRouteTests {
    @Test("query parameters draw what the library draws with the same settings")
    func sameBytesAsLibrary() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let data = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
        let cases: [(String, HeatmapSettings)] = [
            (
                "gradient=viridis&color-scale=sqrt",
                // A preset without color-map-size takes the server's 160 entries.
                HeatmapSettings(
                    gradient: .preset(named: "viridis", colorMapSize: Gradient.paletteColorMapSize) ?? .default,
                    colorScale: .sqrt)
            ),
            (
                "gradient=turbo&color-map-size=64&color-scale=log",
                HeatmapSettings(gradient: .preset(named: "turbo", colorMapSize: 64) ?? .default, colorScale: .log)
            ),
            ("color-scale=log&min-zoom-intensity=9", HeatmapSettings(colorScale: .log, minimumZoomIntensity: 9)),
            (
                "max-zoom-intensity=5&min-zoom-intensity=5&gradient=cividis",
                HeatmapSettings(
                    gradient: .preset(named: "cividis", colorMapSize: Gradient.paletteColorMapSize) ?? .default,
                    minimumZoomIntensity: 5,
                    maximumZoomIntensity: 5)
            ),
            (
                "color-map-size=50",
                HeatmapSettings(
                    gradient: try Gradient(colors: Gradient.default.colors, startPoints: [0.2, 1], colorMapSize: 50))
            ),
        ]
        var bodies: Set<[UInt8]> = []
        for (query, settings) in cases {
            let response = try client.get("/police/7/115/78.png?" + query)
            #expect(response.status == 200, "\(query)")
            let expected = try HeatmapTileLayer(weightedData: data, settings: settings).tileFor(x: 115, y: 78, zoom: 7)
            #expect(response.body == expected.png, "\(query)")
            bodies.insert(response.body)
        }
        #expect(bodies.count == cases.count)
    }

    @Test("bad values are 400s that name the parameter")
    func badValues() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for (query, words) in [
            ("color-scale=cubic", "color-scale"), ("color-map-size=1", "color-map-size"),
            ("color-map-size=99999999999999999999", "color-map-size"), ("min-zoom-intensity=23", "min-zoom-intensity"),
            ("min-zoom-intensity=9&max-zoom-intensity=4", "above"), ("gradient=rainbow", "preset"),
        ] {
            let response = try client.get("/police/7/115/78.png?" + query)
            #expect(response.status == 400, "\(query)")
            #expect(response.text.contains(words), "\(query): \(response.text)")
        }
    }

    @Test("the catalog lists every preset and the map page has a scale control")
    func pageControls() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let catalog = try client.get("/catalog").text
        for name in Gradient.presetNames { #expect(catalog.contains("\"\(name)\""), "\(name)") }
        // The page makes a control of each the catalog lists (from the settings' schema).
        let control = #"{"kind":"choice","label":"scale","name":"color-scale","options":["","linear","sqrt","log"]"#
        #expect(catalog.contains(control))
        let page = try client.get("/").text
        #expect(page.contains("catalog.controls.map"))
    }
}
