import CZlib
import HeatmapCore
import Testing

@testable import HeatmapKit

/// An image of `colors` distinct colours (from a seeded list, with alphas from 0 up), each once
/// at least when there are enough pixels, then in short runs.
private func image(width: Int, height: Int, colors: Int, seed: UInt64) -> RGBAImage {
    var rng = SplitMix64(seed: seed)
    var palette: Set<UInt32> = []
    while palette.count < colors { palette.insert(UInt32.random(in: 0...UInt32.max, using: &rng) & 0xFFFF_FF3F) }
    let list = Array(palette).sorted()
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for p in 0..<(width * height) {
        // Every colour once at least (when there are enough pixels), then runs of one colour.
        let color = p < list.count ? list[p] : list[(p / 3 + Int.random(in: 0...1, using: &rng)) % list.count]
        withUnsafeBytes(of: color.littleEndian) { for k in 0..<4 { pixels[4 * p + k] = $0[k] } }
    }
    return RGBAImage(width: width, height: height, pixels: pixels) ?? RGBAImage(transparentWidth: 1, height: 1)
}

/// The chunks of a PNG: type and data, in order.
func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
    var out: [(String, [UInt8])] = []
    var offset = 8
    while offset + 12 <= png.count {
        let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
        out.append((type, Array(png[(offset + 8)..<min(png.count, offset + 8 + length)])))
        offset += 12 + length
    }
    return out
}

@Suite("Palette PNG")
struct PalettePNGTests {
    @Test(
        "1 to 256 colours: a palette PNG at the bit depth the count allows, the same pixels through libpng",
        arguments: [(1, 1), (2, 1), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (200, 8), (256, 8)])
    func bitDepths(colors: Int, depth: Int) throws {
        for (width, height) in [(1, 1), (3, 5), (7, 3), (9, 4), (17, 2), (64, 64), (513, 3)]
        where width * height >= colors || colors <= 2 {
            let picture = image(width: width, height: height, colors: colors, seed: UInt64(colors * 1000 + width))
            let count = Set(stride(from: 0, to: picture.pixels.count, by: 4).map { Array(picture.pixels[$0..<$0 + 4]) })
                .count
            let png = try PNGEncoder().encode(picture)
            let header = try #require(chunks(png).first)
            #expect(header.type == "IHDR" && header.data[9] == 3, "\(colors) colours, \(width)×\(height)")
            let expectedDepth = count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
            #expect(Int(header.data[8]) == expectedDepth, "\(count) colours, \(width)×\(height)")
            if count == colors { #expect(expectedDepth == depth) }
            #expect(try PNGDecoder.decode(png) == picture, "\(colors) colours, \(width)×\(height)")
        }
    }

    @Test(
        "1- and 2-bit images (rows above as matches) round-trip through the decoder and libpng; spots take fewer bytes",
        arguments: [2, 4])
    func packedRows(colors: Int) throws {
        var rng = SplitMix64(seed: UInt64(colors))
        let palette: [UInt32] = [0, 0xB2FF_0000, 0xB200_FF00, 0xB200_00FF].prefix(colors).map { $0 }
        for (width, height) in [(1, 1), (7, 3), (61, 23), (256, 256), (300, 40), (512, 512), (1000, 9)] {
            // Round spots of random colours on transparent ground, and a little noise.
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for _ in 0..<6 {
                let (cx, cy) = (Int.random(in: 0..<width, using: &rng), Int.random(in: 0..<height, using: &rng))
                let radius = Int.random(in: 1...max(1, min(width, height) / 4), using: &rng)
                let color = palette[Int.random(in: 0..<colors, using: &rng)]
                for y in max(0, cy - radius)..<min(height, cy + radius + 1) {
                    for x in max(0, cx - radius)..<min(width, cx + radius + 1)
                    where (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius {
                        withUnsafeBytes(of: color.littleEndian) {
                            for k in 0..<4 { pixels[4 * (y * width + x) + k] = $0[k] }
                        }
                    }
                }
            }
            for _ in 0..<(width * height / 500) {
                let p = Int.random(in: 0..<(width * height), using: &rng)
                withUnsafeBytes(of: palette[colors - 1].littleEndian) { for k in 0..<4 { pixels[4 * p + k] = $0[k] } }
            }
            let picture = try #require(RGBAImage(width: width, height: height, pixels: pixels))
            let png = try PNGEncoder().encode(picture)
            var filtered = PNGEncoder()
            filtered.packedRowsAbove = false
            let plain = try filtered.encode(picture)
            let label = "\(colors) colours, \(width)×\(height)"
            #expect(chunks(png)[0].data[8] <= 2, "\(label)")
            #expect(try PNGDecoder.decode(png) == picture, "\(label)")
            #expect(TestPNG.libpng(png) == picture, "\(label)")
            #expect(try PNGDecoder.decode(plain) == picture, "\(label)")
            if width * height >= 65_536 { #expect(png.count < plain.count, "\(label): \(png.count) ≥ \(plain.count)") }
        }
    }

    @Test("257 colours are RGBA; 256 without transparent black still fit a palette")
    func overflow() throws {
        let many = image(width: 40, height: 40, colors: 257, seed: 3)
        let rgba = try PNGEncoder().encode(many)
        #expect(chunks(rgba)[0].data[9] == 6)
        #expect(try PNGDecoder.decode(rgba) == many)
        var full = image(width: 32, height: 32, colors: 256, seed: 4)
        // No pixel is transparent black: the palette has no room to keep index 0 for it.
        for p in 0..<(32 * 32) where full.pixels[(4 * p)..<(4 * p + 4)].allSatisfy({ $0 == 0 }) {
            full.pixels[4 * p] = 1
        }
        let distinct = Set(stride(from: 0, to: full.pixels.count, by: 4).map { Array(full.pixels[$0..<$0 + 4]) })
        try #require(distinct.count <= 256)
        let png = try PNGEncoder().encode(full)
        #expect(chunks(png)[0].data[9] == 3)
        #expect(try PNGDecoder.decode(png) == full)
    }

    @Test("tRNS carries the alphas up to the last translucent colour, and is left out when all are opaque")
    func transparencyChunk() throws {
        var opaque = RGBAImage(transparentWidth: 4, height: 1)
        opaque.pixels = [1, 2, 3, 255, 4, 5, 6, 255, 1, 2, 3, 255, 7, 8, 9, 255]
        let plain = try PNGEncoder().encode(opaque)
        #expect(chunks(plain).map(\.type) == ["IHDR", "PLTE", "IDAT", "IEND"])
        #expect(chunks(plain)[1].data == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(try PNGDecoder.decode(plain) == opaque)
        // Transparent black first, then a colour of alpha 0 that keeps its colour, then opaque.
        var mixed = RGBAImage(transparentWidth: 3, height: 1)
        mixed.pixels = [0, 0, 0, 0, 102, 225, 0, 0, 9, 9, 9, 255]
        let png = try PNGEncoder().encode(mixed)
        let found = chunks(png)
        #expect(found.map(\.type) == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        #expect(found[2].data == [0, 0])
        #expect(try PNGDecoder.decode(png) == mixed)
    }

    @Test("every filter and both compressors round-trip palette images; .never keeps RGBA")
    func filtersAndCompressors() throws {
        let picture = image(width: 61, height: 23, colors: 40, seed: 9)
        for filter in PNGEncoder.Filter.allCases {
            for compressor in [PNGEncoder.Compressor.runLength, .zlib] {
                let encoder = PNGEncoder(
                    compressionLevel: .zlibDefault, compressor: compressor, palette: .whenExact, paletteFilter: filter)
                let png = try encoder.encode(picture)
                #expect(chunks(png)[0].data[9] == 3)
                #expect(try PNGDecoder.decode(png) == picture, "\(filter), \(compressor)")
            }
        }
        let rgba = try PNGEncoder(palette: .never).encode(picture)
        #expect(chunks(rgba)[0].data[9] == 6)
        #expect(try PNGDecoder.decode(rgba) == picture)
    }

    @Test("a dense 512 px palette tile (short matches weighed) decodes to its pixels with libpng and our decoder")
    func denseTile() throws {
        var rng = SplitMix64(seed: 23)
        let colors = (0..<200).map { UInt32($0) << 8 | 0x40_0000 | UInt32(179) << 24 }
        var picture = RGBAImage(transparentWidth: 512, height: 512)
        for y in 0..<512 {
            for x in 0..<512 {
                // A smooth field quantised to 200 colours, give or take one: residuals of 0 and ±1.
                let field = 10 + ((x - 256) * (x - 256) + (y - 256) * (y - 256)) / 700  // 10 to 197
                let index = min(199, max(0, field + Int.random(in: -1...1, using: &rng)))
                withUnsafeBytes(of: colors[index].littleEndian) {
                    for k in 0..<4 { picture.pixels[4 * (y * 512 + x) + k] = $0[k] }
                }
            }
        }
        let png = try PNGEncoder().encode(picture)
        #expect(chunks(png)[0].data[9] == 3)
        #expect(try PNGDecoder.decode(png) == picture)
        #expect(TestPNG.libpng(png) == picture)
    }

    @Test("bits are packed high first, rows padded, with the Paeth filter of one byte a pixel")
    func packing() {
        let indices: [UInt8] = [1, 0, 1, 1, 0, 0, 0, 1, 1]
        var out = [UInt8](repeating: 0xFF, count: 2)
        PNGEncoder.pack(indices, count: 9, depth: 1, into: &out)
        #expect(out == [0b1011_0001, 0b1000_0000])
        var two = [UInt8](repeating: 0, count: 2)
        PNGEncoder.pack([3, 0, 2, 1, 1], count: 5, depth: 2, into: &two)
        #expect(two == [0b1100_1001, 0b0100_0000])
        var four = [UInt8](repeating: 0, count: 5)
        PNGEncoder.pack([0xA, 0x5, 0, 0, 0, 0, 0, 0, 0xF], count: 9, depth: 4, into: &four)
        #expect(four == [0xA5, 0, 0, 0, 0xF0])
    }

    @Test("the layer's tiles at the command's 160-entry map are palette PNGs of the colour map's pixels")
    func layerTiles() throws {
        var rng = SplitMix64(seed: 12)
        let points = (0..<4000).map { _ in
            WeightedLatLng(
                coordinate: Coordinate(
                    latitude: Double.random(in: -2...2, using: &rng), longitude: Double.random(in: -2...2, using: &rng)),
                intensity: Double.random(in: 0.5...2, using: &rng))
        }
        for colorScale in [ColorScale.linear, .sqrt, .log] {
            var settings = HeatmapSettings.paletteDefault
            settings.colorScale = colorScale
            let layer = HeatmapTileLayer(weightedData: points, settings: settings, cacheBytes: 0)
            for (zoom, x, y) in [(8, 127, 127), (7, 63, 63), (10, 511, 508)] {
                for scale in [1, 2, 3] {
                    guard let png = try layer.tileFor(x: x, y: y, zoom: zoom, scale: scale).png else { continue }
                    let grid = try #require(try layer.intensity(x: x, y: y, zoom: zoom, scale: scale))
                    let maximum = try layer.normalization(zoom: zoom, scale: scale)
                    let map = ColorMap(gradient: settings.gradient, opacity: settings.opacity, scale: colorScale)
                    #expect(chunks(png)[0].data[9] == 3, "\(colorScale) \(zoom)/\(x)/\(y)@\(scale)x")
                    #expect(try PNGDecoder.decode(png) == map.colorize(grid, maximum: maximum))
                }
            }
        }
    }

    @Test("Google's 1,000-entry map: a palette where a tile allows, else RGBA; the pixels either way")
    func libraryTiles() throws {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, cacheBytes: 0)
        var kinds: Set<UInt8> = []
        for (zoom, x, y) in [(6, 57, 39), (9, 462, 314), (11, 1849, 1257), (5, 28, 19)] {
            guard let png = try layer.tileFor(x: x, y: y, zoom: zoom, scale: 2).png else { continue }
            let grid = try #require(try layer.intensity(x: x, y: y, zoom: zoom, scale: 2))
            let image = ColorMap(gradient: .default, opacity: 0.7).colorize(
                grid, maximum: try layer.normalization(zoom: zoom, scale: 2))
            let colors = Set(stride(from: 0, to: image.pixels.count, by: 4).map { Array(image.pixels[$0..<$0 + 4]) })
            let type = chunks(png)[0].data[9]
            kinds.insert(type)
            #expect(type == (colors.count <= 256 ? 3 : 6), "\(zoom)/\(x)/\(y): \(colors.count) colours")
            #expect(try PNGDecoder.decode(png) == image)
            if type == 6 { #expect(png == (try PNGEncoder(palette: .never).encode(image))) }
        }
        #expect(kinds == [3, 6])
    }
}
