import Foundation
import HeatmapCore
import HeatmapKit
import Testing

/// `heatmap info --radius-meters M [--radius-latitude LAT]`: M(z) and the reach as tile and
/// serve define them, checked against the brute-force maximum; the suggested zooms.
@Suite struct InfoMetersCommandTests {
    struct Output: Decodable {
        struct Normalization: Decodable {
            var zoom: Int
            var value: Double
            var reach: Int?
        }
        var normalization: [Normalization]
        var suggestedMinimumZoom: Int
        var suggestedMaximumZoom: Int
        var radiusMeters: Double?
        var radiusLatitude: Double?
    }

    func info(_ flags: [String]) throws -> Output {
        let result = try ReaderCommandTests().run(["info", Fixtures.path("police_stations.json"), "--json"] + flags)
        #expect(result.status == 0, "\(result.errors)")
        return try JSONDecoder().decode(Output.self, from: Data(result.output.utf8))
    }

    @Test("M(z) of a radius in metres is the brute-force maximum at the reach GroundRadius gives")
    func metres() throws {
        let points = Fixtures.policeStations
        let latitudes = points.map(\.coordinate.latitude)
        let middle = ((latitudes.min() ?? 0) + (latitudes.max() ?? 0)) / 2
        for (flags, latitude) in [
            (["--radius-meters", "3000"], middle), (["--radius-meters", "3000", "--radius-latitude", "10"], 10.0),
        ] {
            let output = try info(flags + ["--zoom", "5,8,11"])
            #expect(output.radiusMeters == 3000)
            // The index's middle latitude: the file's, to the index's fixed-point precision.
            let used = try #require(output.radiusLatitude)
            #expect(abs(used - latitude) < 1e-6, "\(used) vs \(latitude)")
            let ground = try GroundRadius(meters: 3000, latitude: used)
            #expect(output.normalization.map(\.zoom) == [5, 8, 11])
            for value in output.normalization {
                let reach = ground.pixels(zoom: value.zoom, scale: 1)
                #expect(value.reach == reach)
                let exact = ReferenceRenderer.maximum(
                    of: points, space: try PixelSpace(zoom: value.zoom, scale: 1), radius: reach)
                #expect(abs(value.value - exact) <= 1e-4 * exact, "zoom \(value.zoom): \(value.value) vs \(exact)")
            }
            // To the last zoom whose reach is not held at 128 points.
            let held = try #require((0...22).first { ground.isClamped(zoom: $0, scale: 1) })
            #expect(output.suggestedMaximumZoom == max(output.suggestedMinimumZoom, held - 1))
            #expect(output.suggestedMinimumZoom == (try info([])).suggestedMinimumZoom)
        }
        let text = try ReaderCommandTests().run([
            "info", Fixtures.path("police_stations.json"), "--radius-meters", "3000", "--radius-latitude", "10",
            "--zoom", "8",
        ])
        #expect(
            text.output.contains(
                "(radius 3000.0 m at 10.0° = \(try GroundRadius(meters: 3000, latitude: 10).pixels(zoom: 8, scale: 1)) px, scale 1)"
            ), "\(text.output)")
    }

    @Test("bad metres, a latitude alone, or both radii are usage errors")
    func mistakes() throws {
        let data = Fixtures.path("police_stations.json")
        for (flags, words) in [
            (["--radius-meters", "0"], "metres"), (["--radius-meters", "100", "--radius-latitude", "91"], "latitude"),
            (["--radius-latitude", "5"], "needs --radius-meters"), (["--radius", "20", "--radius-meters", "9"], "one"),
        ] {
            let result = try ReaderCommandTests().run(["info", data] + flags)
            #expect(result.status == 64 && result.errors.contains(words), "\(flags): \(result.errors)")
        }
    }
}
