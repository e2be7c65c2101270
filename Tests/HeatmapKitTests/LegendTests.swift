import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// The legend's values against the definition, its labels, and its image against a golden file.
@Suite struct LegendTests {
    @Test("stops sit at colour map entries: value τₑ · M(z), the entry's colour", arguments: ColorScale.allCases)
    func stops(scale: ColorScale) throws {
        let gradient = try #require(Gradient.preset(named: "magma", colorMapSize: 101))
        let layer = HeatmapTileLayer(
            weightedData: Fixtures.policeStations, settings: HeatmapSettings(gradient: gradient, colorScale: scale))
        let legend = try layer.legend(zoom: 7, stops: 6)
        let m = try layer.normalization(zoom: 7)
        #expect(legend.maximum == m && legend.colorScale == scale && legend.stops.count == 6)
        let map = ColorMap(gradient: gradient, opacity: 0.7, scale: scale)
        for stop in legend.stops {
            #expect(stop.entry == Int((stop.fraction * 100).rounded()))
            #expect(abs(stop.value - scale.inverse(stop.fraction) * m) <= 1e-12 * m)
            let rgba = Array(map.entries[(4 * stop.entry)..<(4 * stop.entry + 4)])
            #expect([stop.color.red, stop.color.green, stop.color.blue, stop.color.alpha] == rgba)
            // A pixel of exactly the stop's value takes the stop's entry (or, at 0, is transparent).
            if stop.value > 0 {
                #expect(
                    ReferenceRenderer.colorEntry(intensity: stop.value, maximum: m, count: 101, scale: scale)
                        == stop.entry)
            }
        }
        #expect(legend.stops.first?.value == 0 && legend.stops.last?.value == m)
    }

    @Test("labels are short and use only the font's characters")
    func labels() {
        let cases: [(Double, String)] = [
            (0, "0"), (1, "1"), (0.25, "0.25"), (12.345, "12.3"), (3400, "3400"), (0.0123, "0.0123"),
            (1.23e-5, "1.2e-5"), (6.1e7, "6.1e+7"), (9.96e-3, "1e-2"), (99_999, "1e+5"), (-2.5, "-2.5"),
        ]
        for (value, text) in cases { #expect(LegendLabel.text(value) == text, "\(value)") }
        for value in [1e-30, 3.3e38, 7.77, 123.456, 0.5] {
            #expect(LegendLabel.text(value).allSatisfy { LegendLabel.glyphs[$0] != nil }, "\(value)")
        }
    }

    /// To renew after an intended change: `curl 'http://127.0.0.1:8080/police_stations/legend.png?z=7&color-map-size=1000'`
    /// (the library's 1,000 entries; the server's default is 160)
    /// from `heatmap serve Examples/police_stations.json`, into `docs/legend-police-7.png` and
    /// `Tests/HeatmapKitTests/Fixtures/golden-legend-police-7.png`.
    @Test("the police stations' legend at zoom 7 equals the golden image")
    func golden() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Fixtures.path("golden-legend-police-7.png")))
        let golden = try PNGDecoder.decode([UInt8](bytes))
        let image = try HeatmapTileLayer(weightedData: Fixtures.policeStations).legend(zoom: 7).image()
        #expect(image.width == 256 && image.height == 40)
        #expect(image.pixels.count == golden.pixels.count)
        let differing = zip(image.pixels, golden.pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) channels differ from the golden image")
    }
}
