import CPNG
import Foundation
@_spi(Benchmark) import HeatmapCore
import HeatmapKit
import HeatmapWebP

/// One tile in every format: bytes and encode time (medians, milliseconds) of today's RGBA PNG
/// (Google's 1,000-entry map), the palette PNG at the server's 255-entry map (colour codes a band
/// at a time, as the server draws it), lossless and lossy (q90) WebP of the server's pixels,
/// and libpng at zlib level 6 as a reference for size.
struct BytesMeasurement: Codable {
    var tile: String
    var kind: String
    /// Today's RGBA PNG: colour (RGBA) and encode, separately.
    var rgbaBytes: Int
    var rgbaColourMs: Double
    var rgbaEncodeMs: Double
    /// The palette PNG at the server's map: colour codes, and the encode that follows.
    var indexedBytes: Int
    var indexedColourMs: Double
    var indexedEncodeMs: Double
    /// Whether it is a palette PNG (colour type 3), its bit depth and palette size, and whether
    /// its decoded pixels equal the RGBA image of the same map.
    var indexedIsPalette: Bool
    var indexedBitDepth: Int
    var indexedColours: Int
    var indexedEqualsRGBA: Bool
    /// `rgbaEncodeMs / indexedEncodeMs` and `(colour + encode)` likewise; bytes likewise.
    var encodeSpeedup: Double
    var colourAndEncodeSpeedup: Double
    var bytesRatio: Double
    /// The library's own tile (1,000 entries) through `PNGEncoder().encode`: a palette when it
    /// holds at most 256 colours.
    var libraryColours: Int
    var libraryBytes: Int
    /// WebP of the server's pixels.
    var webpLosslessBytes: Int
    var webpLosslessMs: Double
    var webpLosslessExact: Bool
    var webpLossyBytes: Int
    var webpLossyMs: Double
    /// libpng's simplified API (zlib level 6, its own filters) of the RGBA tile and of the palette.
    var libpngRGBABytes: Int
    var libpngIndexedBytes: Int
    /// Pillow's `optimize=True` of the RGBA and palette images (bench/pillow_sizes.py fills them in).
    var pillowRGBABytes: Int?
    var pillowIndexedBytes: Int?
    /// The server's pixels against today's: the largest channel difference, and its 99th
    /// percentile over the drawn pixels.
    var largestDifference: Int
    var differenceP99: Int
    /// Entries of the palette PNG's map (`--color-map-size`; the server's by default).
    var indexedColorMapSize: Int
}

/// Measures ``BytesMeasurement`` for the benchmark's tiles.
enum BytesBenchmark {
    static func measure(
        bench: TileBenchmark, tiles: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)], repetitions: Int,
        imagesTo folder: String?, colorMapSize: Int? = nil
    ) throws -> [BytesMeasurement] {
        if let folder { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let server = Gradient.paletteDefault
        let gradient = try Gradient(
            colors: server.colors, startPoints: server.startPoints, colorMapSize: colorMapSize ?? server.colorMapSize)
        return try tiles.map { t in
            try measure(
                bench: bench, zoom: t.zoom, scale: t.scale, kind: t.kind, x: t.x, y: t.y, repetitions: repetitions,
                imagesTo: folder, gradient: gradient)
        }
    }

    static func measure(
        bench: TileBenchmark, zoom: Int, scale: Int, kind: String, x: Int, y: Int, repetitions: Int,
        imagesTo folder: String?, gradient: Gradient
    ) throws -> BytesMeasurement {
        let name = "\(zoom)/\(x)/\(y)\(scale > 1 ? "@\(scale)x" : "")"
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let kernel = GaussianKernel(radius: bench.radius * scale)
        let grid = bench.index.intensity(in: PixelRect(tileX: x, y: y, in: space), space: space, kernel: kernel)
        let maximum = Double(bench.index.maximumIntensity(space: space, kernel: kernel))
        let today = ColorMap(gradient: .default, opacity: 0.7)
        let served = ColorMap(gradient: gradient, opacity: 0.7)
        let rgbaEncoder = PNGEncoder(palette: .never)
        var rgba: [UInt8] = []
        var indexed: [UInt8] = []
        var timings: [String: [Double]] = [:]
        // Interleaved: each repetition times both encoders, one after the other.
        for _ in 0..<repetitions {
            var image = RGBAImage(transparentWidth: 0, height: 0)
            timings["rgbaColour", default: []].append(
                Measure.seconds { image = today.colorize(grid, maximum: maximum) } * 1000)
            timings["rgbaEncode", default: []].append(
                try Measure.seconds { rgba = try rgbaEncoder.encode(image) } * 1000)
            let (bytes, colour, total) = try PaletteTile.encode(grid, map: served, maximum: maximum)
            indexed = bytes
            timings["indexedColour", default: []].append(colour * 1000)
            timings["indexedEncode", default: []].append((total - colour) * 1000)
        }
        func median(_ key: String) -> Double { Measure.median(timings[key] ?? []) }
        let servedImage = served.colorize(grid, maximum: maximum)
        let todayImage = today.colorize(grid, maximum: maximum)
        let decoded = try PNGDecoder.decode(indexed)
        let header = PNGHeaderFields(indexed)
        let library = try PNGEncoder().encode(todayImage)
        let libraryColours = Set(
            stride(from: 0, to: todayImage.pixels.count, by: 4).map { i in
                todayImage.pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: UInt32.self) }
            }
        ).count
        var lossless: [UInt8] = []
        var lossy: [UInt8] = []
        let losslessEncoder = WebPEncoder(mode: .lossless)
        let lossyEncoder = WebPEncoder(mode: .lossy(quality: 90))
        var losslessTimes: [Double] = []
        var lossyTimes: [Double] = []
        for _ in 0..<repetitions {
            losslessTimes.append(try Measure.seconds { lossless = try losslessEncoder.encode(servedImage) } * 1000)
            lossyTimes.append(try Measure.seconds { lossy = try lossyEncoder.encode(servedImage) } * 1000)
        }
        let (largest, p99) = difference(servedImage, todayImage)
        if let folder {
            let file = name.replacingOccurrences(of: "/", with: "-")
            _ = FileManager.default.createFile(atPath: "\(folder)/\(file)-rgba.png", contents: Data(rgba))
            _ = FileManager.default.createFile(atPath: "\(folder)/\(file)-indexed.png", contents: Data(indexed))
        }
        let rgbaTotal = median("rgbaColour") + median("rgbaEncode")
        let indexedTotal = median("indexedColour") + median("indexedEncode")
        return BytesMeasurement(
            tile: name, kind: kind, rgbaBytes: rgba.count, rgbaColourMs: median("rgbaColour"),
            rgbaEncodeMs: median("rgbaEncode"), indexedBytes: indexed.count, indexedColourMs: median("indexedColour"),
            indexedEncodeMs: median("indexedEncode"), indexedIsPalette: header.colorType == 3,
            indexedBitDepth: header.bitDepth, indexedColours: header.paletteCount,
            indexedEqualsRGBA: decoded == servedImage,
            encodeSpeedup: median("rgbaEncode") / max(1e-9, median("indexedEncode")),
            colourAndEncodeSpeedup: rgbaTotal / max(1e-9, indexedTotal),
            bytesRatio: Double(indexed.count) / Double(max(1, rgba.count)), libraryColours: libraryColours,
            libraryBytes: library.count, webpLosslessBytes: lossless.count,
            webpLosslessMs: Measure.median(losslessTimes), webpLosslessExact: webpDecodes(lossless, to: servedImage),
            webpLossyBytes: lossy.count, webpLossyMs: Measure.median(lossyTimes),
            libpngRGBABytes: LibPNG.size(todayImage, palette: false),
            libpngIndexedBytes: LibPNG.size(servedImage, palette: true), largestDifference: largest,
            differenceP99: p99, indexedColorMapSize: gradient.colorMapSize)
    }

    /// The largest channel difference between two images and its 99th percentile over the
    /// pixels either draws.
    static func difference(_ a: RGBAImage, _ b: RGBAImage) -> (Int, Int) {
        var largest: [Int] = []
        for p in 0..<(a.width * a.height) where a.pixels[4 * p + 3] > 0 || b.pixels[4 * p + 3] > 0 {
            largest.append((0..<4).map { abs(Int(a.pixels[4 * p + $0]) - Int(b.pixels[4 * p + $0])) }.max() ?? 0)
        }
        largest.sort()
        guard let top = largest.last else { return (0, 0) }
        return (top, largest[min(largest.count - 1, largest.count * 99 / 100)])
    }

    /// Whether libwebp decodes `webp` to exactly `image`'s pixels.
    static func webpDecodes(_ webp: [UInt8], to image: RGBAImage) -> Bool {
        WebPDecoding.rgba(webp).map { $0 == image } ?? false
    }
}

/// A tile drawn as the server draws it: colour codes a band at a time, then the palette PNG.
enum PaletteTile {
    /// The PNG of `grid` coloured by `map`, the seconds the colour codes took, and the seconds
    /// of the whole.
    static func encode(_ grid: IntensityGrid, map: ColorMap, maximum: Double) throws -> ([UInt8], Double, Double) {
        var colour = 0.0
        var bytes: [UInt8] = []
        let total = try Measure.seconds {
            bytes = try PNGEncoder.encodeTile(grid, map: map, maximum: maximum) { draw in
                colour += Measure.seconds(draw)
            }
        }
        return (bytes, colour, total)
    }
}

/// The header fields of a PNG the benchmark reports: bit depth, colour type, palette entries.
struct PNGHeaderFields {
    var bitDepth = 0
    var colorType = 0
    var paletteCount = 0

    init(_ png: [UInt8]) {
        guard png.count > 33 else { return }
        bitDepth = Int(png[24])
        colorType = Int(png[25])
        var offset = 33
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[offset + 4..<offset + 8], as: UTF8.self) == "PLTE" { paletteCount = length / 3 }
            offset += 12 + length
        }
    }
}
