import Foundation
import HeatmapKit
import Testing

/// The tile README shows, against the PNG committed when it was checked by eye.
///
/// To renew it after an intended change of the drawing:
/// `swift run heatmap tile Examples/police_stations.json 6/57/39@2x --color-map-size 1000 --output
/// docs/police-stations-6-57-39@2x.png` (the library's 1,000 entries; the command's default is 160)
/// and copy it to `Tests/HeatmapKitTests/Fixtures/golden-police-6-57-39@2x.png`.
@Suite struct GoldenImageTests {
    @Test("police stations of Victoria, tile 6/57/39@2x, equal the golden image")
    func policeStations() throws {
        let golden = try PNGDecoder.decode(try #require(readBytes(Fixtures.path("golden-police-6-57-39@2x.png"))))
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        let image = try #require(try layer.tileFor(x: 57, y: 39, zoom: 6, scale: 2).decoded)
        #expect(image.width == golden.width && image.height == golden.height)
        // Identical here; a different maths library may move a pixel by one colour-map entry.
        var worst = 0
        var differing = 0
        for i in 0..<min(image.pixels.count, golden.pixels.count) {
            let d = abs(Int(image.pixels[i]) - Int(golden.pixels[i]))
            worst = max(worst, d)
            if d > 0 { differing += 1 }
        }
        #expect(worst <= 3, "largest channel difference \(worst)")
        #expect(differing <= image.pixels.count / 1000, "\(differing) channels differ")
    }

    private func readBytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
