import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import HeatmapWebP
import Testing

/// `dwebp`, libwebp's command-line decoder, when it is installed.
private let dwebp = ["/usr/bin/dwebp", "/usr/local/bin/dwebp", "/opt/homebrew/bin/dwebp"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// The pixels of a PAM file (`dwebp -pam`): RGB_ALPHA, 8 bits.
private func pam(_ bytes: [UInt8]) -> RGBAImage? {
    guard let end = bytes.indices.first(where: { i in i >= 6 && bytes[(i - 6)..<i].elementsEqual("ENDHDR".utf8) })
    else { return nil }
    let header = String(decoding: bytes[..<end], as: UTF8.self)
    var fields: [String: String] = [:]
    for line in header.split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    guard let width = fields["WIDTH"].flatMap({ Int($0) }), let height = fields["HEIGHT"].flatMap({ Int($0) }),
        fields["TUPLTYPE"] == "RGB_ALPHA"
    else { return nil }
    return RGBAImage(width: width, height: height, pixels: Array(bytes[(end + 1)...]))
}

@Suite("WebP encoding")
struct WebPEncoderTests {
    /// A tile of the police stations at the server's 160-entry map: transparent pixels, colours of
    /// alpha 0 that keep their colour, translucent ones.
    static func tile() throws -> RGBAImage {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, settings: .paletteDefault, cacheBytes: 0)
        return try #require(try layer.tileFor(x: 57, y: 39, zoom: 6, scale: 2).decoded)
    }

    @Test("lossless WebP decodes (libwebp) to the PNG's pixels, alpha-0 colours included; lossy keeps the size")
    func losslessRoundTrip() throws {
        let image = try Self.tile()
        #expect(image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
        let webp = try WebPEncoder().encode(image)
        #expect(Array(webp.prefix(4)) == Array("RIFF".utf8) && Array(webp[8..<12]) == Array("WEBP".utf8))
        #expect(WebPDecoding.rgba(webp) == image)
        let png = try PNGEncoder().encode(image)
        #expect(try WebPEncoder().encode(png: png) == webp)
        var hidden = RGBAImage(transparentWidth: 3, height: 1)
        hidden.pixels = [102, 225, 0, 0, 0, 0, 0, 0, 9, 8, 7, 100]
        #expect(WebPDecoding.rgba(try WebPEncoder().encode(hidden)) == hidden)
        let lossy = try WebPEncoder(quality: 90).encode(image)
        let decoded = try #require(WebPDecoding.rgba(lossy))
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(lossy != webp)
    }

    @Test(
        "libwebp's dwebp decodes the lossless tile to the PNG's pixels",
        .enabled(if: dwebp != nil, "dwebp (Debian's webp package) is not installed"))
    func dwebpDecodes() throws {
        let image = try Self.tile()
        let folder = try TemporaryFolder("webp")
        defer { folder.remove() }
        let input = folder.path + "/tile.webp"
        let output = folder.path + "/tile.pam"
        try Data(try WebPEncoder().encode(image)).write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(dwebp))
        process.arguments = ["-quiet", "-pam", input, "-o", output]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let decoded = try #require(pam([UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))))
        #expect(decoded == image)
    }

    @Test("an empty image, one too wide, and a PNG that is not one throw a WebPError that says so")
    func errors() {
        for image in [RGBAImage(transparentWidth: 0, height: 4), RGBAImage(transparentWidth: 16_384, height: 1)] {
            let error = #expect(throws: WebPError.self) { try WebPEncoder().encode(image) }
            #expect(error?.description.contains("1...16383") == true)
        }
        let error = #expect(throws: WebPError.self) { try WebPEncoder().encode(png: [1, 2, 3]) }
        #expect(error?.description.contains("PNG") == true)
    }
}
