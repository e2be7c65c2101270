import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// A solid base under the heatmap, for stacks.
private struct SolidLayer: SyncTileLayer {
    let png: [UInt8]
    func tileFor(_ tile: TileRequest) -> TileResult { .image(png) }
}

/// The query parameters of a stack's URL reach the heatmaps in it, over each one's settings;
/// pre-rendered and URL layers draw as they are; a stack without a heatmap refuses them.
@Suite struct StackOverrideTests {
    @Test("radius=, gradient=, color-scale=, radius-meters= on a named or ad-hoc stack draw its heatmap with them")
    func parametersReachTheHeatmaps() throws {
        let base = try Upstream.solidPNG(side: 256, red: 200, green: 200, blue: 220, alpha: 255)
        let solid = SolidLayer(png: base)
        let stacks = [StackDefinition(name: "map", layers: ["base", "police"])]
        try HostedLayerTests.serve([try HostedLayer(name: "base", layer: solid)], stacks: stacks) { client, _, _ in
            let points = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
            var bodies: Set<[UInt8]> = []
            for (query, settings) in [
                ("", HeatmapSettings()), ("radius=35", HeatmapSettings(radius: 35)),
                (
                    "gradient=viridis&color-scale=sqrt",
                    // A preset without color-map-size takes the server's 160 entries.
                    HeatmapSettings(
                        gradient: .preset(named: "viridis", colorMapSize: Gradient.paletteColorMapSize) ?? .default,
                        colorScale: .sqrt)
                ),
                (
                    "radius-meters=8000&opacity=0.9",
                    { () -> HeatmapSettings in
                        var s = HeatmapSettings(opacity: 0.9)
                        s.radiusMeters = 8000
                        return s
                    }()
                ),
            ] {
                let expected = try TileStack([solid, HeatmapTileLayer(weightedData: points, settings: settings)])
                    .tileFor(TileRequest(x: 115, y: 78, zoom: 7, scale: 2))
                for name in ["map", "base+police"] {
                    let response = try client.get("/\(name)/7/115/78@2x.png" + (query.isEmpty ? "" : "?" + query))
                    #expect(response.status == 200, "\(name)?\(query): \(response.text)")
                    #expect(response.body == expected.png, "\(name)?\(query)")
                    bodies.insert(response.body)
                }
            }
            #expect(bodies.count == 4)  // each query drawn and cached apart
            // Parameters the server does not know are ignored, as on a heatmap's own tiles.
            let plain = try client.get("/map/7/115/78@2x.png")
            #expect(try client.get("/map/7/115/78@2x.png?foo=1").body == plain.body)
        }
    }

    @Test("a stack without a heatmap, a bad value, or the mean of a layer without values: 400 naming it")
    func refusals() throws {
        let base = try Upstream.solidPNG(side: 256, red: 200, green: 200, blue: 220, alpha: 255)
        let hosted = [
            try HostedLayer(name: "base", layer: SolidLayer(png: base)),
            try HostedLayer(name: "top", layer: SolidLayer(png: base)),
        ]
        let stacks = [StackDefinition(name: "bases", layers: ["base", "top"])]
        try HostedLayerTests.serve(hosted, stacks: stacks) { client, _, _ in
            for path in ["/bases/3/1/1.png?radius=30", "/base+top/3/1/1.png?gradient=fire"] {
                let response = try client.get(path)
                #expect(
                    response.status == 400 && response.text.contains("holds no heatmap"), "\(path): \(response.text)")
            }
            #expect(try client.get("/bases/3/1/1.png").status == 200)
            let bad = try client.get("/base+police/3/7/4.png?radius=5")
            #expect(bad.status == 400 && bad.text.contains("radius \"5\""), "\(bad.text)")
            let mean = try client.get("/base+police/6/57/39.png?aggregate=mean")
            #expect(mean.status == 400 && mean.text.contains("layer police"), "\(mean.text)")
        }
    }
}
