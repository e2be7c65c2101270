import CPNG
import CZlib
import HeatmapCore
import Testing

@testable import HeatmapKit

/// An image of random bytes, half of its pixels fully transparent, like a sparse heatmap tile.
private func randomImage(width: Int, height: Int, seed: UInt64) -> RGBAImage {
    var generator = SplitMix64(seed: seed)
    var image = RGBAImage(transparentWidth: width, height: height)
    for pixel in 0..<(width * height) where Bool.random(using: &generator) {
        for channel in 0..<4 { image.pixels[pixel * 4 + channel] = UInt8.random(in: 0...255, using: &generator) }
    }
    return image
}

/// A smooth image: every row the same horizontal ramp, so the "up" filter zeroes all rows but the first.
private func verticallyConstantImage(width: Int, height: Int) -> RGBAImage {
    var image = RGBAImage(transparentWidth: width, height: height)
    image.pixels = []
    for _ in 0..<height {
        for x in 0..<width { image.pixels += [UInt8(x % 256), UInt8(255 - x % 256), 40, UInt8(x * 7 % 256)] }
    }
    return image
}

private let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
private let levels = [0, 1, 3, 6, 9].compactMap(PNGEncoder.CompressionLevel.init)

@Suite("PNG encoding and decoding")
struct PNGEncoderTests {
    @Test(
        "Random images round-trip through libpng with every filter and level", arguments: PNGEncoder.Filter.allCases,
        levels)
    func roundTrip(filter: PNGEncoder.Filter, level: PNGEncoder.CompressionLevel) throws {
        let encoder = PNGEncoder(filter: filter, compressionLevel: level, compressor: .zlib, palette: .never)
        for (index, (width, height)) in [(64, 48), (31, 7), (5, 40)].enumerated() {
            let image = randomImage(width: width, height: height, seed: UInt64(index) + 1)
            let bytes = try encoder.encode(image)
            #expect(Array(bytes.prefix(8)) == signature)
            #expect(try PNGDecoder.decode(bytes) == image)
        }
    }

    @Test(
        "The run-length deflate round-trips noise, runs, repeated pixels and skewed bytes",
        arguments: PNGEncoder.Filter.allCases)
    func runLengthDeflate(filter: PNGEncoder.Filter) throws {
        let encoder = PNGEncoder(filter: filter, compressor: .runLength, palette: .never)
        // Fibonacci frequencies make a Huffman tree deeper than deflate's 15 bits: the limit must hold.
        var fibonacci: [UInt8] = []
        var (a, b) = (1, 1)
        for value in 0..<22 {
            fibonacci += [UInt8](repeating: UInt8(value * 11), count: a)
            (a, b) = (b, a + b)
        }
        var rng = SplitMix64(seed: 3)
        fibonacci.shuffle(using: &rng)
        let rows = fibonacci.count / 400
        var skewed = RGBAImage(transparentWidth: 100, height: rows)
        skewed.pixels = Array(fibonacci.prefix(100 * rows * 4))
        var stripes = RGBAImage(transparentWidth: 600, height: 9)
        for i in 0..<stripes.pixels.count { stripes.pixels[i] = UInt8((i / 4) % 7 == 0 ? 200 : (i % 4) * 60) }
        var pixelRuns = RGBAImage(transparentWidth: 1000, height: 3)
        for i in 0..<pixelRuns.pixels.count { pixelRuns.pixels[i] = [10, 20, 30, 255][i % 4] }
        for image in [
            randomImage(width: 300, height: 200, seed: 11), skewed, stripes, pixelRuns,
            RGBAImage(transparentWidth: 2000, height: 2),
        ] {
            let bytes = try encoder.encode(image)
            #expect(try PNGDecoder.decode(bytes) == image, "\(image.width)×\(image.height)")
        }
        #expect(try encoder.encode(RGBAImage(transparentWidth: 512, height: 512)).count < 4096)
    }

    @Test("Small, odd-sized, transparent and smooth images round-trip", arguments: PNGEncoder.Filter.allCases)
    func edgeCaseImages(filter: PNGEncoder.Filter) throws {
        var onePixel = RGBAImage(transparentWidth: 1, height: 1)
        onePixel.pixels = [255, 128, 0, 200]
        let images = [
            randomImage(width: 1, height: 1, seed: 7),
            onePixel,
            randomImage(width: 257, height: 3, seed: 8),
            randomImage(width: 1, height: 17, seed: 9),
            randomImage(width: 3, height: 1, seed: 10),
            RGBAImage(transparentWidth: 256, height: 256),
            verticallyConstantImage(width: 300, height: 5),
        ]
        for image in images {
            let bytes = try PNGEncoder(filter: filter, palette: .never).encode(image)
            #expect(try PNGDecoder.decode(bytes) == image, "\(image.width)×\(image.height)")
        }
    }

    @Test("The header describes an 8-bit RGBA, non-interlaced image and the file ends with IEND (palette: .never)")
    func containerLayout() throws {
        let bytes = try PNGEncoder(palette: .never).encode(randomImage(width: 257, height: 3, seed: 1))
        #expect(Array(bytes[0..<8]) == signature)
        // IHDR: length 13, type, width 257, height 3, depth 8, colour type 6, then three zeros.
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 13, 73, 72, 68, 82])
        #expect(Array(bytes[16..<29]) == [0, 0, 1, 1, 0, 0, 0, 3, 8, 6, 0, 0, 0])
        #expect(Array(bytes[37..<41]) == Array("IDAT".utf8))
        #expect(Array(bytes.suffix(12)) == [0, 0, 0, 0, 73, 69, 78, 68, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test("A fully transparent 512×512 tile compresses to under 1% of its 1 MiB of pixels")
    func transparentTileIsSmall() throws {
        let bytes = try PNGEncoder().encode(RGBAImage(transparentWidth: 512, height: 512))
        #expect(bytes.count < 10_000)
    }

    @Test("Fixed filters tag every row with their type byte")
    func fixedFilterTypeBytes() {
        let image = randomImage(width: 9, height: 6, seed: 3)
        let expected: [(PNGEncoder.Filter, UInt8)] = [(.none, 0), (.sub, 1), (.up, 2), (.paeth, 4)]
        for (filter, type) in expected {
            let rows = PNGRowFilter.filterRows(of: image.pixels, rowBytes: 36, height: 6, filter: filter)
            #expect(rows.count == 37 * 6)
            #expect(stride(from: 0, to: rows.count, by: 37).allSatisfy { rows[$0] == type })
        }
    }

    @Test("Adaptive filtering picks the filter with the smallest sum, as libpng does")
    func adaptiveChoosesSmallestSum() {
        let image = verticallyConstantImage(width: 300, height: 4)
        let rows = PNGRowFilter.filterRows(of: image.pixels, rowBytes: 1200, height: 4, filter: .adaptive)
        #expect(rows[0] != 2)  // The row above row 0 is zeros, so "up" equals "none" and cannot win.
        #expect([1201, 2402, 3603].map { rows[$0] } == [2, 2, 2])  // Identical rows: "up" gives zeros.
        let transparent = PNGRowFilter.filterRows(
            of: [UInt8](repeating: 0, count: 64), rowBytes: 16, height: 4, filter: .adaptive)
        #expect(transparent.allSatisfy { $0 == 0 })  // All sums are 0: "none" is kept.
    }

    @Test("Encoding an empty or inconsistent image throws instead of writing an invalid PNG")
    func invalidImageThrows() {
        for (width, height) in [(0, 0), (0, 5), (5, 0)] {
            let error = #expect(throws: PNGError.self) {
                try PNGEncoder().encode(RGBAImage(transparentWidth: width, height: height))
            }
            #expect(error?.kind == .invalidImage)
            #expect(error?.description.contains("at least 1 pixel") == true)
        }
        var truncated = RGBAImage(transparentWidth: 2, height: 2)
        truncated.pixels.removeLast()
        let error = #expect(throws: PNGError.self) { try PNGEncoder().encode(truncated) }
        #expect(error?.kind == .invalidImage)
    }

    @Test("Compression levels outside 0...9 are rejected")
    func compressionLevelRange() {
        #expect(PNGEncoder.CompressionLevel(-1) == nil)
        #expect(PNGEncoder.CompressionLevel(10) == nil)
        #expect(PNGEncoder.CompressionLevel(0) == .stored)
        #expect(PNGEncoder.CompressionLevel(9)?.value == 9)
        #expect(PNGEncoder().compressionLevel == .fastest)
        #expect(PNGEncoder().compressor == .runLength)
        #expect(PNGEncoder().filter == .up)
    }

    @Test("Empty, garbage, truncated and corrupted data throw PNGError with libpng's reason")
    func invalidDataThrows() throws {
        let valid = try PNGEncoder().encode(randomImage(width: 40, height: 30, seed: 5))
        var generator = SplitMix64(seed: 42)
        let garbage = (0..<500).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var corrupted = valid
        corrupted[60] ^= 0x55  // Inside the IDAT data: the chunk CRC no longer matches.
        var inputs: [[UInt8]] = [[], [0], garbage, signature, signature + garbage, corrupted]
        // Every cut that loses part of the IDAT chunk, the image data libpng needs.
        inputs += stride(from: 1, to: valid.count - 12, by: 7).map { Array(valid.prefix($0)) }
        for bytes in inputs {
            let error = #expect(throws: PNGError.self, "\(bytes.count) bytes") { try PNGDecoder.decode(bytes) }
            #expect(error?.kind == .invalidData)
            #expect(error?.message.isEmpty == false)
        }
        let reason = #expect(throws: PNGError.self) { try PNGDecoder.decode(garbage) }
        #expect(reason?.message.contains("PNG") == true)
    }

    @Test("Grey-and-alpha PNGs written by libpng decode to RGBA")
    func decodesOtherColourTypes() throws {
        var image = png_image()
        image.version = cpng_image_version
        image.width = 2
        image.height = 2
        image.format = 1  // PNG_FORMAT_GA: 8-bit grey and alpha.
        let greyAlpha: [UInt8] = [0, 0, 80, 255, 160, 128, 255, 7]
        var bytes = [UInt8](repeating: 0, count: 1_024)
        var count = bytes.count
        let written = bytes.withUnsafeMutableBytes { out in
            greyAlpha.withUnsafeBytes {
                png_image_write_to_memory(&image, out.baseAddress, &count, 0, $0.baseAddress, 0, nil)
            }
        }
        png_image_free(&image)
        try #require(written != 0)
        let decoded = try PNGDecoder.decode(Array(bytes.prefix(count)))
        #expect(decoded.pixels == [0, 0, 0, 0, 80, 80, 80, 255, 160, 160, 160, 128, 255, 255, 255, 7])
    }

    @Test("Decoding refuses images over the pixel limit before allocating them")
    func decodeLimit() throws {
        let bytes = try PNGEncoder().encode(RGBAImage(transparentWidth: 100, height: 100))
        #expect(try PNGDecoder.decode(bytes, maximumPixelCount: 10_000).width == 100)
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes, maximumPixelCount: 9_999) }
        #expect(error?.kind == .imageTooLarge)
    }
}

@Suite struct Adler32Tests {
    @Test("the SIMD Adler-32 equals zlib's on every length up to 300 and on 1 MiB of random and of 0xFF bytes")
    func matchesZlib() {
        var generator = SplitMix64(seed: 99)
        let random = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let ones = [UInt8](repeating: 0xFF, count: 1 << 20)
        for bytes in [random, ones] {
            bytes.withUnsafeBufferPointer { buffer in
                for length in Array(0...300) + [
                    5551, 5552, 5553, 131_071, 131_072, 131_073, 131_328, 300_000, buffer.count,
                ] {
                    let slice = UnsafeBufferPointer(rebasing: buffer[0..<length])
                    let expected = UInt32(truncatingIfNeeded: adler32_z(1, slice.baseAddress, slice.count))
                    #expect(Adler32.checksum(slice) == expected, "length \(length)")
                }
            }
        }
    }
}
