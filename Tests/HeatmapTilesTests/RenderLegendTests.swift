import Foundation
import HeatmapKit
import HeatmapTiles
import Testing

/// `heatmap render` writes each zoom's legend into the archive's metadata, additively.
@Suite struct RenderLegendTests {
    @Test("every zoom's legend is in the folder's metadata.json, PMTiles' JSON metadata and MBTiles' json row")
    func legendsInMetadata() throws {
        let layer = HeatmapTileLayer(
            weightedData: Fixtures.policeStations,
            settings: HeatmapSettings(gradient: .paletteDefault, colorScale: .sqrt, maximumPercentile: 98))
        for name in ["legend", "legend.pmtiles", "legend.mbtiles"] {
            let output = Fixtures.temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try Fixtures.heatmap([
                "render", RenderCommandTests.data, "--zoom", "4-6", "--output", output, "--color-scale", "sqrt",
                "--max-percentile", "98", "--quiet",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let legends = try #require(try TileArchive.open(output).metadata.legends, "\(name)")
            #expect(legends.keys.sorted() == ["4", "5", "6"], "\(name)")
            for zoom in 4...6 {
                let want = TileLegend(try layer.legend(zoom: zoom))
                #expect(legends[String(zoom)] == want, "\(name) z \(zoom)")
                #expect(want.normalization == "percentile" && want.percentile == 98 && want.colorScale == "sqrt")
            }
        }
    }

}
