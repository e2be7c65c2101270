import Foundation
import HeatmapCore
import HeatmapTestSupport
import Testing

@testable import HeatmapKit

/// The APNG encoder: chunks in the order and numbering the specification asks, frames that
/// decode to the images given, a first frame any PNG reader shows, streaming equal to whole,
/// and errors naming what is wrong.
@Suite struct APNGEncoderTests {
    static let palette = TestAPNG.frames(count: 24, width: 160, height: 40)
    static let rgba = TestAPNG.frames(count: 5, width: 70, height: 30, manyColors: true)

    @Test("chunks: IHDR, acTL, PLTE/tRNS, then fcTL + IDAT and fcTL + fdAT numbered 0, 1, 2, …; IEND last")
    func structure() throws {
        for (frames, colorType) in [(Self.palette, UInt8(3)), (Self.rgba, 6)] {
            let bytes = try APNGEncoder.encode(frames, delay: .milliseconds(250), loopCount: 3)
            let chunks = try TestAPNG.chunks(bytes)
            let types = chunks.map(\.type)
            let head = colorType == 3 ? ["IHDR", "PLTE", "tRNS", "acTL"] : ["IHDR", "acTL"]
            let body = ["fcTL", "IDAT"] + Array(repeating: ["fcTL", "fdAT"], count: frames.count - 1).flatMap { $0 }
            #expect(types == head + body + ["IEND"])
            #expect(chunks[0].data[9] == colorType)
            let acTL = try #require(chunks.first { $0.type == "acTL" })
            #expect(TestAPNG.bigEndian(acTL.data[0..<4]) == UInt32(frames.count))
            #expect(TestAPNG.bigEndian(acTL.data[4..<8]) == 3)
            let numbered = chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }
            #expect(numbered.map { TestAPNG.bigEndian($0.data[0..<4]) } == (0..<UInt32(numbered.count)).map { $0 })
            for control in chunks.filter({ $0.type == "fcTL" }) {
                #expect(control.data.count == 26)
                #expect(TestAPNG.bigEndian(control.data[4..<8]) == UInt32(frames[0].width))
                #expect(TestAPNG.bigEndian(control.data[8..<12]) == UInt32(frames[0].height))
                #expect(Array(control.data[12..<26]) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 250, 0x03, 0xE8, 0, 0])
            }
        }
    }

    @Test("every frame decodes to the image given, palette and RGBA, each compressor")
    func framesRoundTrip() throws {
        for compressor in [PNGEncoder.Compressor.runLength, .zlib] {
            for frames in [Self.palette, Self.rgba] {
                let bytes = try APNGEncoder.encode(frames, png: PNGEncoder(compressor: compressor))
                let decoded = try TestAPNG.framePNGs(bytes).map { try PNGDecoder.decode($0) }
                #expect(decoded == frames, "\(compressor), \(frames.count) frames")
            }
        }
    }

    @Test("a plain PNG reader shows the first frame: PNGDecoder and libpng")
    func firstFrame() throws {
        for frames in [Self.palette, Self.rgba] {
            let bytes = try APNGEncoder.encode(frames)
            #expect(try PNGDecoder.decode(bytes) == frames[0])
            #expect(TestPNG.libpng(bytes) == frames[0])
        }
    }

    @Test("frames streamed one at a time make the file encode(_:) makes; the palette is shared and small")
    func streaming() throws {
        let frames = Self.palette
        let shared = try #require(APNGEncoder.sharedPalette(of: frames))
        #expect(shared.first == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(shared.count == 10)  // Transparent, 7 ramp colours, the label's white and black.
        var encoder = try APNGEncoder(
            width: 160, height: 40, frameCount: frames.count, colors: .palette(shared))
        var streamed: [UInt8] = []
        for frame in frames { streamed += try encoder.encode(frame) }
        streamed += try encoder.finish()
        #expect(streamed == (try APNGEncoder.encode(frames)))
        #expect(APNGEncoder.sharedPalette(of: Self.rgba) == nil)
        // Palette frames are a fraction of RGBA ones.
        let asRGBA = try APNGEncoder.encode(frames, png: PNGEncoder(palette: .never))
        #expect(streamed.count * 2 < asRGBA.count, "\(streamed.count) bytes against \(asRGBA.count)")
        #expect(try TestAPNG.framePNGs(asRGBA).map { try PNGDecoder.decode($0) } == frames)
    }

    @Test("bad sizes, counts, delays and colours are errors naming the value, and leave the encoder as it was")
    func errors() throws {
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
                return nil
            } catch { return "\(error)" }
        }
        #expect(message { _ = try APNGEncoder(width: 0, height: 5, frameCount: 1) }?.contains("0×5") == true)
        #expect(
            message { _ = try APNGEncoder(width: 5, height: 5, frameCount: 0) }
                == "an APNG holds 1 to 1073741823 frames, not 0")
        #expect(
            message { _ = try APNGEncoder(width: 5, height: 5, frameCount: 1, delay: .seconds(66)) }?
                .hasPrefix("a frame delay is 0 to 65.535 seconds") == true)
        #expect(message { _ = try APNGEncoder(width: 5, height: 5, frameCount: 1, loopCount: -1) } != nil)
        #expect(message { _ = try APNGEncoder(width: 5, height: 5, frameCount: 1, colors: .palette([])) } != nil)
        #expect(message { _ = try APNGEncoder.encode([]) } == "an APNG needs at least one frame")

        var encoder = try APNGEncoder(
            width: 2, height: 1, frameCount: 2, colors: .palette([RGBAColor(red: 1, green: 2, blue: 3)]))
        let wrongSize = RGBAImage(transparentWidth: 3, height: 1)
        #expect(message { _ = try encoder.encode(wrongSize) } == "frame 1 is 3×1, not the animation's 2×1")
        let outside = try #require(RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 255, 9, 9, 9, 255]))
        #expect(
            message { _ = try encoder.encode(outside) }
                == "frame 1 has colour #090909ff at pixel (1, 0), which is not in the animation's shared palette")
        #expect(encoder.framesWritten == 0)
        let inside = try #require(RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 255, 1, 2, 3, 255]))
        _ = try encoder.encode(inside)
        #expect(message { _ = try encoder.finish() } == "the APNG announced 2 frames but 1 were written")
        #expect(message { _ = try encoder.encode(inside, delay: .seconds(-1)) }?.hasPrefix("a frame delay") == true)
        _ = try encoder.encode(inside, delay: .milliseconds(65535))
        #expect(
            message { _ = try encoder.encode(inside) } == "the APNG announced 2 frames, and all were written already")
        #expect(try encoder.finish().count == 12)
    }

    @Test("a colour map of up to 253 entries and a label's two colours share one palette; 255 entries need RGBA")
    func colorMapPalette() throws {
        let label = [RGBAColor(red: 255, green: 255, blue: 255), RGBAColor(red: 0, green: 0, blue: 0)]
        for (size, fits) in [(253, true), (255, false), (1000, false), (16, true)] {
            let gradient = try #require(Gradient.preset(named: "default", colorMapSize: size))
            let colorMap = ColorMap(gradient: gradient, opacity: 0.8)
            let colors = APNGEncoder.Colors.heatmap(colorMap, adding: label)
            guard case .palette(let palette) = colors else {
                #expect(!fits, "\(size) entries")
                continue
            }
            #expect(fits, "\(size) entries")
            #expect(palette.count <= 256 && palette.first == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            // Frames of every entry, transparency and a label encode and decode against that palette.
            let frames = (0..<3).map { k -> RGBAImage in
                var image = RGBAImage(transparentWidth: 200, height: 30)
                for i in 0..<(200 * 30) where (i + k) % 3 != 0 {
                    let e = (i * 7 + k) % colorMap.count * 4
                    image.pixels.replaceSubrange((i * 4)..<(i * 4 + 4), with: colorMap.entries[e..<(e + 4)])
                }
                image.drawLabel("2024-03-0\(k + 1)")
                return image
            }
            var encoder = try APNGEncoder(width: 200, height: 30, frameCount: 3, colors: colors)
            var bytes: [UInt8] = []
            for frame in frames { bytes += try encoder.encode(frame) }
            bytes += try encoder.finish()
            #expect(try TestAPNG.framePNGs(bytes).map { try PNGDecoder.decode($0) } == frames)
        }
    }

    @Test("frames keep a map of at most 253 entries (the default 160 is not grown), cut 254 or 255 to 253, keep larger")
    func frameSettingsColorMap() throws {
        let label = HeatmapAnimation.labelColors
        let drawn = HeatmapAnimation.frameSettings(.paletteDefault)
        #expect(drawn.gradient == Gradient.paletteDefault, "the command's default is drawn as it is")
        for (size, kept) in [
            (2, 2), (16, 16), (160, 160), (253, 253), (254, 253), (255, 253), (256, 256), (1000, 1000),
        ] {
            let gradient = try #require(Gradient.preset(named: "viridis", colorMapSize: size))
            let frames = HeatmapAnimation.frameSettings(HeatmapSettings(gradient: gradient))
            #expect(frames.gradient.colorMapSize == kept, "\(size) entries")
            #expect(frames.gradient.colors == gradient.colors && frames.gradient.startPoints == gradient.startPoints)
            let colors = APNGEncoder.Colors.heatmap(ColorMap(gradient: frames.gradient, opacity: 0.7), adding: label)
            if case .palette = colors {
                #expect(size <= 255, "\(size) entries")
            } else {
                #expect(size > 255, "\(size) entries fit one palette with the label")
            }
        }
    }
}
