import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// `/{layer}/legend.png?z=Z`, `/{layer}/legend.json?z=Z` and `max-percentile=` through the server.
@Suite struct LegendRouteTests {
    struct Document: Decodable {
        struct Stop: Decodable {
            var value: Double
            var color: String
        }
        struct Normalization: Decodable {
            var kind: String
            var zoom: Int?
            var percentile: Double?
            var exact: Bool?
        }
        var zoom: Int
        var maximum: Double
        var colorScale: String
        var normalization: Normalization
        var stops: [Stop]
        var query: String
        var tiles: String
    }

    @Test("legend.json gives M(z), the scale and the stops of the library's legend, per zoom")
    func json() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let data = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
        for (query, settings) in [
            ("", HeatmapSettings()),
            ("&color-scale=log&max-percentile=99", HeatmapSettings(colorScale: .log, maximumPercentile: 99)),
            (
                "&gradient=viridis&color-map-size=64",
                HeatmapSettings(gradient: .preset(named: "viridis", colorMapSize: 64) ?? .default)
            ),
            ("&max=3", HeatmapSettings(maximumIntensity: 3)),
        ] {
            for zoom in [5, 7] {
                let response = try client.get("/police/legend.json?z=\(zoom)" + query)
                #expect(response.status == 200, "\(query)")
                #expect(response.header("Access-Control-Allow-Origin") == "*")
                let document = try JSONDecoder().decode(Document.self, from: Data(response.body))
                let legend = try HeatmapTileLayer(weightedData: data, settings: settings).legend(zoom: zoom)
                #expect(document.zoom == zoom && document.maximum == legend.maximum, "\(query) z \(zoom)")
                #expect(document.stops.map(\.value) == legend.stops.map(\.value))
                #expect(document.stops.first?.value == 0 && document.stops.last?.value == legend.maximum)
                #expect(document.colorScale == settings.colorScale.rawValue)
                #expect(
                    document.tiles.hasSuffix("/police/{z}/{x}/{y}.png" + (query.isEmpty ? "" : "?" + document.query)))
                if settings.maximumPercentile != nil {
                    #expect(document.normalization.kind == "percentile" && document.normalization.exact == true)
                    #expect(document.normalization.zoom == zoom && document.normalization.percentile == 99)
                }
            }
        }
    }

    @Test("legend.png is the library's image, with an ETag that answers 304")
    func png() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let data = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
        let response = try client.get("/police/legend.png?z=7&color-scale=sqrt")
        #expect(response.status == 200 && response.header("Content-Type") == "image/png")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        let legend = try HeatmapTileLayer(weightedData: data, settings: HeatmapSettings(colorScale: .sqrt)).legend(
            zoom: 7)
        #expect(response.body == (try PNGEncoder().encode(legend.image())))
        #expect(pngWidth(response.body) == 256)
        let etag = try #require(response.header("ETag"))
        #expect(
            try client.get("/police/legend.png?z=7&color-scale=sqrt", headers: ["If-None-Match": etag]).status == 304)
        #expect(pngWidth(try client.get("/police/legend.png?z=7&scale=2").body) == 512)
        // Another zoom, another M(z): another image.
        #expect(try client.get("/police/legend.png?z=9&color-scale=sqrt").body != response.body)
    }

    @Test("bad legend queries are 400s naming the parameter; unknown layers 404")
    func errors() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for (path, words) in [
            ("/police/legend.png", "z=Z"), ("/police/legend.json?z=23", "z \"23\""), ("/police/legend.png?z=x", "z"),
            ("/police/legend.json?z=3&scale=4", "scale"), ("/police/legend.json?z=3&stops=1", "stops"),
            ("/police/legend.json?z=3&max-percentile=0", "max-percentile"),
            ("/police/legend.png?z=3&max-percentile=101", "max-percentile"),
        ] {
            let response = try client.get(path)
            #expect(response.status == 400, "\(path)")
            #expect(response.text.contains(words), "\(path): \(response.text)")
        }
        #expect(try client.get("/nothing/legend.json?z=3").status == 404)
        #expect(try client.get("/police/7/115/78.png?max-percentile=abc").status == 400)
    }

    @Test("max-percentile= draws the library's tile; TileJSON names the legend; the page shows it")
    func percentileTiles() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let data = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
        let response = try client.get("/police/7/115/78.png?max-percentile=90")
        #expect(response.status == 200)
        let expected = try HeatmapTileLayer(weightedData: data, settings: HeatmapSettings(maximumPercentile: 90))
            .tileFor(x: 115, y: 78, zoom: 7)
        #expect(response.body == expected.png)
        #expect(response.body != (try client.get("/police/7/115/78.png").body))
        let tileJSON = try client.get("/police.json?max-percentile=90").text
        #expect(tileJSON.contains("/police/legend.json?z={z}&max-percentile=90"))
        #expect(tileJSON.contains("\"maxPercentile\":90"))
        let page = try client.get("/").text
        #expect(page.contains("id=\"legend\"") && page.contains("/legend.png?z="))
        let catalog = try client.get("/catalog").text
        #expect(catalog.contains(#""name":"max-percentile""#), "the percentile control")
    }

    @Test("config keys set every colour option, checked as the flags are")
    func configKeys() throws {
        let folder = try TemporaryFolder("legend-config")
        defer { folder.remove() }
        let path = folder.file("serve.json")
        try Data(
            """
            {"defaults": {"colorScale": "sqrt", "maxPercentile": 99},
             "layers": [{"name": "a", "file": "a.json", "gradient": "viridis", "colorMapSize": 64,
                         "colorScale": "log", "minZoomIntensity": 5, "maxZoomIntensity": 9, "maxPercentile": 95.5},
                        {"name": "b", "file": "b.json", "colorMapSize": 50, "maxIntensity": 4}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let configuration = try ServeConfiguration.load(path: path)
        let base = try #require(try configuration.defaults?.applied(to: .default))
        #expect(base.colorScale == .sqrt && base.maximumPercentile == 99)
        let layers = try #require(configuration.layers)
        let a = try layers[0].settings.applied(to: base)
        #expect(a.gradient == Gradient.preset(named: "viridis", colorMapSize: 64))
        #expect(a.colorScale == .log && a.minimumZoomIntensity == 5 && a.maximumZoomIntensity == 9)
        #expect(a.maximumPercentile == 95.5)
        let b = try layers[1].settings.applied(to: base)
        #expect(b.gradient.colorMapSize == 50 && b.gradient.colors == Gradient.default.colors)
        #expect(b.maximumIntensity == 4 && b.colorScale == .sqrt)
        for (settings, words) in [
            (ServeConfiguration.LayerSettings(["color-scale": "cubic"]), "color-scale"),
            (ServeConfiguration.LayerSettings(["color-map-size": "1"]), "color-map-size"),
            (ServeConfiguration.LayerSettings(["min-zoom-intensity": "23"]), "min-zoom-intensity"),
            (ServeConfiguration.LayerSettings(["min-zoom-intensity": "9", "max-zoom-intensity": "3"]), "above"),
            (ServeConfiguration.LayerSettings(["max-percentile": "0"]), "percentile"),
            (ServeConfiguration.LayerSettings(["max-intensity": "-1"]), "max-intensity"),
        ] {
            do {
                _ = try settings.applied(to: .default)
                Issue.record("accepted \(words)")
            } catch {
                #expect("\(error)".contains(words), "\(error)")
            }
        }
    }
}
