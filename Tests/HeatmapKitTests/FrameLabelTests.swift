import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// Frame labels drawn in the built-in font, against golden images checked by eye, and the
/// animation the browser test plays (`Tests/browser/apng.sh`) against the frames it should hold.
///
/// To renew a golden file after an intended change of the drawing, run the test: it writes
/// what it drew beside the temporary folder's `heatmap-renew-` files and names them.
@Suite struct FrameLabelTests {
    /// Two labels: a window of dates at the top left, 1 × 1, and one of hours at the bottom
    /// right, 2 × 2, over a half-transparent ground.
    static func labels() -> RGBAImage {
        var image = RGBAImage(transparentWidth: 360, height: 60)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i + 2] = 200 }
        for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i + 3] = 100 }
        image.drawLabel("2024-03-01 – 2024-03-08", corner: .topLeft)
        image.drawLabel("2024-03-01 13:00 – 14:00 UTC", corner: .bottomRight, scale: 2)
        return image
    }

    /// Compares `bytes` with the fixture `name` by decoded pixels; on a difference writes the
    /// new file to the temporary folder and names it.
    static func expectGolden(_ image: RGBAImage, _ bytes: [UInt8], _ name: String) throws {
        let stored = FileManager.default.contents(atPath: Fixtures.path(name)).map { [UInt8]($0) }
        let golden = try stored.map { try PNGDecoder.decode($0) }
        if golden != image { try renew(bytes, name) }
    }

    /// Writes `bytes` to the temporary folder and records that the fixture `name` differs.
    static func renew(_ bytes: [UInt8], _ name: String) throws {
        let renewed = FileManager.default.temporaryDirectory.appendingPathComponent(
            "heatmap-renew-" + name.replacingOccurrences(of: "/", with: "-"))
        try Data(bytes).write(to: renewed)
        Issue.record("\(name) differs from what was drawn; if intended, copy \(renewed.path) to its place")
    }

    @Test("the labels equal the golden image golden-label.png")
    func golden() throws {
        let image = Self.labels()
        try Self.expectGolden(image, try PNGEncoder().encode(image), "golden-label.png")
    }

    @Test("a label writes only its two colours, the halo closes around every stroke, and it clips")
    func halo() throws {
        var image = RGBAImage(transparentWidth: 140, height: 20)
        image.drawLabel("0123456789-–:/.TZUC?", scale: 1)
        let ink: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)
        let halo: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)
        var inked = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                let isInk = p == ink
                #expect(isInk || p == halo || p == (0, 0, 0, 0), "pixel (\(x), \(y))")
                guard isInk else { continue }
                inked += 1
                for dy in -1...1 {
                    for dx in -1...1 {
                        let q = image[x + dx, y + dy]
                        #expect(q == ink || q == halo, "ink at (\(x), \(y)) touches (\(x + dx), \(y + dy))")
                    }
                }
            }
        }
        #expect(inked > 100)
        // The text keeps two pixels from the bottom and left edges: one clear, one of halo.
        #expect((0..<image.width).allSatisfy { image[$0, image.height - 1] == (0, 0, 0, 0) })
        #expect((0..<image.height).allSatisfy { image[0, $0] == (0, 0, 0, 0) })
        for corner in RGBAImage.Corner.allCases {
            var tiny = RGBAImage(transparentWidth: 7, height: 3)
            tiny.drawLabel("2024-03-01", corner: corner, scale: 3)
            #expect(tiny.pixels.count == 7 * 3 * 4)
        }
        var empty = RGBAImage(transparentWidth: 0, height: 0)
        empty.drawLabel("1")
        #expect(empty.pixels.isEmpty)
    }

    /// The 24 frames of the browser test's animation, each labelled with its window.
    static let browserFrames = TestAPNG.frames(count: 24, width: 160, height: 40)

    @Test("the browser test's APNG and sheet hold the 24 labelled frames, 250 ms each")
    func browserFixture() throws {
        let frames = Self.browserFrames
        let apng = try APNGEncoder.encode(frames, delay: .milliseconds(250))
        let stored = FileManager.default.contents(atPath: Fixtures.path("animation/frames.apng")).map { [UInt8]($0) }
        let decoded = try stored.map { try TestAPNG.framePNGs($0).map { try PNGDecoder.decode($0) } }
        if decoded != frames { try Self.renew(apng, "animation/frames.apng") }
        // The sheet: the frames one below the other, as a plain PNG.
        var sheet = RGBAImage(transparentWidth: 160, height: 40 * frames.count)
        sheet.pixels = frames.flatMap(\.pixels)
        try Self.expectGolden(sheet, try PNGEncoder().encode(sheet), "animation/frames-sheet.png")
    }
}
