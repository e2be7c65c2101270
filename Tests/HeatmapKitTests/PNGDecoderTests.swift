import CZlib
import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// The Swift PNG decoder against libpng (its own transforms, no gamma) and against what PNG's
/// rules say the samples mean: PngSuite's images, seeded random images of every colour type,
/// bit depth and interlacing, and corrupt and hostile files, which must throw, never trap.
@Suite struct PNGDecoderTests {
    /// PngSuite's images as pypng's source distribution carries them (`code/pngsuite.py`).
    static let suite: [(name: String, bytes: [UInt8])] = {
        guard let folder = Bundle.module.url(forResource: "pngsuite", withExtension: nil, subdirectory: "Fixtures"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".png") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                return nil
            }
            return (String(name.dropLast(4)), [UInt8](data))
        }
    }()

    @Test("every PngSuite image decodes as libpng decodes it (palettes, tRNS, 1-16 bits, Adam7)")
    func pngSuiteEqualsLibpng() throws {
        #expect(Self.suite.count == 28)
        for (name, bytes) in Self.suite {
            let reference = try #require(TestPNG.libpng(bytes), "libpng refuses \(name)")
            let decoded = try PNGDecoder.decode(bytes)
            #expect(decoded == reference, "\(name)")
        }
    }

    @Test("the interlaced PngSuite images equal their plain twins")
    func interlacedEqualsPlain() throws {
        let images = Dictionary(uniqueKeysWithValues: Self.suite.map { ($0.name, $0.bytes) })
        for (name, bytes) in images where name.hasPrefix("basi") {
            guard let plain = images["basn" + name.dropFirst(4)] else { continue }
            #expect(try PNGDecoder.decode(bytes) == PNGDecoder.decode(plain), "\(name)")
        }
    }

    @Test("seeded random images of every type, depth and interlacing equal their meaning and libpng")
    func randomImagesEqualTheReference() throws {
        var rng = SplitMix64(seed: 24)
        let images = TestPNG.randomImages(seed: 7)
        #expect(images.count == 150)
        for image in images {
            let label =
                "type \(image.colorType) depth \(image.depth) \(image.width)×\(image.height)"
                + (image.interlaced ? " Adam7" : "") + (image.transparency == nil ? "" : " tRNS")
            let bytes = TestPNG.encode(image, rng: &rng)
            let decoded = try PNGDecoder.decode(bytes)
            #expect(decoded.pixels == TestPNG.expected(image), "\(label)")
            #expect(decoded == TestPNG.libpng(bytes), "\(label)")
        }
    }

    @Test("16-bit samples are reduced as round(v × 255 / 65535), all 65536 of them; a 31010 grey is 121")
    func sixteenBitReduction() throws {
        for v in 0...65535 {
            let expected = UInt8((Double(v) * 255 / 65535).rounded())
            if PNGRowConverter.reduce(UInt16(v)) != expected { Issue.record("\(v)") }
        }
        let tile = TestPNG.Image(width: 2, height: 1, colorType: 0, depth: 16, samples: [31010, 65535])
        var rng = SplitMix64(seed: 1)
        let decoded = try PNGDecoder.decode(TestPNG.encode(tile, rng: &rng))
        #expect(decoded.pixels == [121, 121, 121, 255, 255, 255, 255, 255])
    }

    @Test("a chunk whose CRC fails, in any chunk, is an error naming the chunk")
    func badCRCs() throws {
        var rng = SplitMix64(seed: 3)
        let image = TestPNG.randomImages(seed: 3).first { $0.colorType == 3 && $0.transparency != nil }!
        let valid = TestPNG.encode(image, rng: &rng)
        var offset = 8
        while offset < valid.count {
            let length = Int(valid[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) })
            let name = String(decoding: valid[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var broken = valid
            broken[offset + 8 + length] ^= 0x01  // The CRC's first byte.
            let error = #expect(throws: PNGError.self, "\(name)") { try PNGDecoder.decode(broken) }
            #expect(
                error?.message.contains("\(name) at byte \(offset) fails its CRC") == true, "\(error?.message ?? "")")
            offset += 12 + length
        }
    }

    @Test("every truncation of a file is an error, never a trap")
    func truncations() throws {
        var rng = SplitMix64(seed: 4)
        for image in TestPNG.randomImages(seed: 4).filter({ $0.width == 17 }) {
            let valid = TestPNG.encode(image, rng: &rng)
            for length in 0..<valid.count {
                let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(Array(valid.prefix(length))) }
                #expect(error?.kind == .invalidData)
            }
        }
    }

    @Test("headers that lie and data that does not fit are errors, with what is wrong")
    func wrongSizesAndFields() throws {
        var rng = SplitMix64(seed: 5)
        let image = TestPNG.Image(
            width: 8, height: 8, colorType: 6, depth: 8, samples: (0..<256).map { UInt16($0 % 256) })
        let data = TestPNG.deflate([UInt8](repeating: 0, count: 8 * 33))  // 8 rows of 8 RGBA pixels, filter 0
        func file(width: UInt32, height: UInt32, depth: UInt8 = 8, type: UInt8 = 6, interlace: UInt8 = 0, idat: [UInt8])
            -> [UInt8]
        {
            [137, 80, 78, 71, 13, 10, 26, 10]
                + TestPNG.chunk(
                    "IHDR", TestPNG.bigEndian(width) + TestPNG.bigEndian(height) + [depth, type, 0, 0, interlace])
                + TestPNG.chunk("IDAT", idat) + TestPNG.chunk("IEND", [])
        }
        #expect(try PNGDecoder.decode(file(width: 8, height: 8, idat: data)).pixels.allSatisfy { $0 == 0 })
        let cases: [([UInt8], String)] = [
            (file(width: 8, height: 9, idat: data), "fewer bytes than the image needs"),
            (file(width: 9, height: 8, idat: data), "fewer bytes than the image needs"),
            (file(width: 0, height: 8, idat: data), "sides must be 1 to 2³¹−1"),
            (file(width: 8, height: 0x8000_0000, idat: data), "sides must be 1 to 2³¹−1"),
            (file(width: 8, height: 8, depth: 4, idat: data), "bit depth 4 is not allowed with colour type 6"),
            (file(width: 8, height: 8, type: 5, idat: data), "colour type 5 is not PNG's"),
            (file(width: 8, height: 8, interlace: 2, idat: data), "interlace method 2"),
            (file(width: 8, height: 8, type: 3, idat: data), "a palette image has no PLTE"),
            (file(width: 8, height: 8, idat: [0x78, 0x9C, 0xFF, 0xFF]), "the image data is corrupt"),
            (file(width: 8, height: 8, idat: TestPNG.deflate([UInt8](repeating: 7, count: 8 * 33))), "filter type 7"),
            (Array(TestPNG.encode(image, rng: &rng).dropLast(12)), "ends before its IEND"),
        ]
        for (bytes, reason) in cases {
            let error = #expect(throws: PNGError.self, "\(reason)") { try PNGDecoder.decode(bytes) }
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "") — wanted \(reason)")
        }
        // A wrong Adler-32 at the end of the zlib stream.
        var badAdler = data
        badAdler[badAdler.count - 1] ^= 0xFF
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(file(width: 8, height: 8, idat: badAdler)) }
        #expect(error?.message.contains("incorrect data check") == true, "\(error?.message ?? "")")
    }

    @Test("bombs: a header over the pixel limit is refused before any allocation; a tiny image's huge stream is cut")
    func decompressionBombs() throws {
        // 60000 × 60000 announced (3.6 × 10⁹ pixels, 14 GB of RGBA): refused from the header alone.
        let huge =
            [137, 80, 78, 71, 13, 10, 26, 10]
            + TestPNG.chunk("IHDR", TestPNG.bigEndian(60000) + TestPNG.bigEndian(60000) + [8, 6, 0, 0, 0])
            + TestPNG.chunk("IDAT", TestPNG.deflate([UInt8](repeating: 0, count: 1 << 16)))
            + TestPNG.chunk("IEND", [])
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(huge) }
        #expect(error?.kind == .imageTooLarge)
        // 1 × 1 announced over 64 MiB of zeros (64 KiB compressed): one pixel, nothing more inflated.
        let bomb =
            [137, 80, 78, 71, 13, 10, 26, 10]
            + TestPNG.chunk("IHDR", TestPNG.bigEndian(1) + TestPNG.bigEndian(1) + [8, 6, 0, 0, 0])
            + TestPNG.chunk("IDAT", TestPNG.deflate([UInt8](repeating: 0, count: 64 << 20)))
            + TestPNG.chunk("IEND", [])
        #expect(try PNGDecoder.decode(bomb).pixels == [0, 0, 0, 0])
    }

    @Test(
        "2000 seeded mutations of valid files (CRCs made right again): errors or images, as libpng's where both decode")
    func mutations() throws {
        var rng = SplitMix64(seed: 6)
        let sources =
            Self.suite.map(\.bytes)
            + TestPNG.randomImages(seed: 6).prefix(40).map { TestPNG.encode($0, rng: &rng) }
        var decodedCount = 0
        for round in 0..<2000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 8..<bytes.count, using: &rng)
                bytes[at] = UInt8.random(in: 0...255, using: &rng)
            }
            // Recompute every chunk's CRC, so that the mutation reaches the decoding behind it.
            var offset = 8
            while offset + 12 <= bytes.count {
                let length = Int(bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) })
                guard length <= bytes.count - offset - 12 else { break }
                let typed = Array(bytes[(offset + 4)..<(offset + 8 + length)])
                let value = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
                bytes.replaceSubrange(
                    (offset + 8 + length)..<(offset + 12 + length), with: TestPNG.bigEndian(UInt32(value)))
                offset += 12 + length
            }
            guard let decoded = try? PNGDecoder.decode(bytes, maximumPixelCount: 1 << 20) else { continue }
            decodedCount += 1
            if let reference = TestPNG.libpng(bytes) { #expect(decoded == reference, "round \(round)") }
        }
        #expect(decodedCount > 100, "too few mutations decode to test anything: \(decodedCount)")
    }
}

@Suite struct SixteenBitTileTests {
    @Test("a 16-bit grey base tile of 31010 composes as browsers show it: 121, not libpng's gamma-encoded 181")
    func baseTileShowsAsBrowsersShowIt() throws {
        var rng = SplitMix64(seed: 16)
        let tile = TestPNG.Image(
            width: 4, height: 4, colorType: 0, depth: 16, samples: [UInt16](repeating: 31010, count: 16),
            interlaced: true)
        let image = try TileCompositor.decode(TestPNG.encode(tile, rng: &rng), layer: "base", expected: 4)
        #expect(image.pixels == Array(repeating: [121, 121, 121, 255], count: 16).flatMap { $0 })
    }
}
