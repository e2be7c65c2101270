import CZlib
import HeatmapCore
import Testing

@testable import HeatmapKit

/// The PNG made a band of rows at a time is the one made from the whole filtered image.
@Suite struct PNGBandStreamTests {
    /// The PNG of `image` as the encoder wrote it before bands: the whole image filtered, then
    /// deflated in one piece.
    static func wholeImagePNG(_ image: RGBAImage, filter: PNGEncoder.Filter) throws -> [UInt8] {
        let filtered = PNGRowFilter.filterRows(
            of: image.pixels, rowBytes: image.width * 4, height: image.height, filter: filter)
        let stream = filtered.withUnsafeBufferPointer { RunLengthDeflate.compress($0) }
        // The same container around it: compare the streams inside.
        let png = try PNGEncoder(filter: filter, palette: .never).encode(image)
        #expect(Array(png[41..<(png.count - 16)]) == stream)
        return png
    }

    /// A heatmap-like image: transparent, with blobs of runs and noise, rows of every kind.
    static func image(width: Int, height: Int, seed: UInt64) -> RGBAImage {
        var rng = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            switch y % 5 {
            case 0: continue
            case 1:
                let start = Int.random(in: 0..<width, using: &rng)
                for x in start..<min(width, start + 300) { pixels[(y * width + x) * 4 + 3] = 200 }
            case 2:
                for i in 0..<(width * 4) where Int.random(in: 0..<3, using: &rng) == 0 {
                    pixels[y * width * 4 + i] = UInt8.random(in: 0...255, using: &rng)
                }
            default:
                for x in 0..<width { pixels[(y * width + x) * 4] = UInt8(truncatingIfNeeded: x / 7 + y) }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels) ?? RGBAImage(transparentWidth: 1, height: 1)
    }

    @Test(
        "every filter, widths from 1 to 768 pixels: the same bytes as the whole image's",
        arguments: [(1, 700), (3, 3), (37, 130), (256, 256), (512, 517), (768, 40)])
    func sameBytes(width: Int, height: Int) throws {
        let image = Self.image(width: width, height: height, seed: UInt64(width * 1000 + height))
        for filter in PNGEncoder.Filter.allCases {
            _ = try Self.wholeImagePNG(image, filter: filter)
        }
        // Long runs across every band's end: all transparent, all one colour.
        for byte in [UInt8(0), 7] {
            let flat = RGBAImage(
                width: width, height: height, pixels: [UInt8](repeating: byte, count: width * height * 4))
            if let flat { _ = try Self.wholeImagePNG(flat, filter: .up) }
        }
    }

    @Test("a layer's tile drawn in bands is the colourised intensities, encoded whole")
    func layerTileEqualsWholeImage() throws {
        var rng = SplitMix64(seed: 5)
        let points = (0..<3000).map { _ in
            WeightedLatLng(
                coordinate: Coordinate(
                    latitude: Double.random(in: -1...1, using: &rng), longitude: Double.random(in: -1...1, using: &rng)),
                intensity: Double.random(in: 0.5...2, using: &rng))
        }
        for colorScale in [ColorScale.linear, .sqrt, .log] {
            var settings = HeatmapSettings.default
            settings.colorScale = colorScale
            let layer = HeatmapTileLayer(weightedData: points, settings: settings, cacheBytes: 0)
            for scale in [1, 2, 3] {
                let tile = try #require(try layer.tileFor(x: 127, y: 127, zoom: 8, scale: scale).png)
                let grid = try #require(try layer.intensity(x: 127, y: 127, zoom: 8, scale: scale))
                let maximum = try layer.normalization(zoom: 8, scale: scale)
                let map = ColorMap(gradient: settings.gradient, opacity: settings.opacity, scale: colorScale)
                let image = map.colorize(grid, maximum: maximum)
                #expect(try PNGDecoder.decode(tile) == image, "\(colorScale), scale \(scale)")
                // Over 256 colours, the RGBA band stream's bytes are the whole image's.
                if tile[25] == 6 { #expect(tile == (try PNGEncoder(palette: .never).encode(image))) }
                // Twice: the second tile draws on the grid the first recycled.
                #expect(try layer.tileFor(x: 127, y: 127, zoom: 8, scale: scale).png == tile)
            }
        }
    }
}
