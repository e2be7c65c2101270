import CPNG
import CZlib
import HeatmapCore

/// PNG files of any colour type, bit depth and interlacing written by the tests themselves
/// (zlib compresses, every row with a random filter), the RGBA they mean by PNG's rules, and
/// libpng's decode of a file: the references the Swift decoder is checked against.
enum TestPNG {
    /// An image by its samples, before any encoding.
    struct Image {
        var width: Int
        var height: Int
        /// 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
        var colorType: UInt8
        var depth: Int
        /// Every pixel's samples in order, at `depth` bits.
        var samples: [UInt16]
        /// RGB triples, for colour type 3.
        var palette: [UInt8] = []
        /// The tRNS chunk's body, if any.
        var transparency: [UInt8]?
        var interlaced = false

        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 0 }
    }

    /// Seeded random images of every colour type and allowed depth, plain and interlaced, of
    /// sizes that leave Adam7 passes empty, with palettes (short ones, and tRNS alpha) and grey
    /// and RGB tRNS values that occur in the image.
    static func randomImages(seed: UInt64) -> [Image] {
        var rng = SplitMix64(seed: seed)
        var images: [Image] = []
        let kinds: [(UInt8, [Int])] = [
            (0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16]),
        ]
        let sizes = [(1, 1), (3, 5), (9, 2), (17, 9), (33, 12)]
        for (type, depths) in kinds {
            for depth in depths {
                for (width, height) in sizes {
                    for interlaced in [false, true] {
                        var image = Image(
                            width: width, height: height, colorType: type, depth: depth, samples: [],
                            interlaced: interlaced)
                        let top = UInt16((1 << depth) - 1)
                        let entries = type == 3 ? Int.random(in: 1...(1 << depth), using: &rng) : 0
                        image.samples = (0..<(width * height * image.channels)).map { _ in
                            type == 3
                                ? UInt16.random(in: 0..<UInt16(entries), using: &rng)
                                // A few values over and over, so that a tRNS value is hit.
                                : Bool.random(using: &rng)
                                    ? [0, top, top / 3][Int.random(in: 0..<3, using: &rng)]
                                    : UInt16.random(in: 0...top, using: &rng)
                        }
                        if type == 3 {
                            image.palette = (0..<(entries * 3)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                            if Bool.random(using: &rng) {
                                image.transparency = (0..<Int.random(in: 0...entries, using: &rng)).map { _ in
                                    UInt8.random(in: 0...255, using: &rng)
                                }
                            }
                        } else if (type == 0 || type == 2) && Bool.random(using: &rng) {
                            let key = (0..<image.channels).map { image.samples[$0] }
                            image.transparency = key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                        }
                        images.append(image)
                    }
                }
            }
        }
        return images
    }

    /// The RGBA the image means: grey and colour scaled to 8 bits (16-bit as
    /// round(v × 255 / 65535)), palette entries with their tRNS alpha, the tRNS value transparent.
    static func expected(_ image: Image) -> [UInt8] {
        let top = Double((1 << image.depth) - 1)
        func eight(_ v: UInt16) -> UInt8 { UInt8((Double(v) * 255 / top).rounded()) }
        let key: [UInt16]? = image.transparency.flatMap { body in
            image.colorType == 3
                ? nil : (0..<(body.count / 2)).map { UInt16(body[2 * $0]) << 8 | UInt16(body[2 * $0 + 1]) }
        }
        var out: [UInt8] = []
        for pixel in 0..<(image.width * image.height) {
            let s = Array(image.samples[(pixel * image.channels)..<((pixel + 1) * image.channels)])
            switch image.colorType {
            case 0: out += [eight(s[0]), eight(s[0]), eight(s[0]), key == s ? 0 : 255]
            case 2: out += [eight(s[0]), eight(s[1]), eight(s[2]), key == s ? 0 : 255]
            case 3:
                let i = Int(s[0])
                let alpha = image.transparency.flatMap { i < $0.count ? $0[i] : nil } ?? 255
                out += [image.palette[3 * i], image.palette[3 * i + 1], image.palette[3 * i + 2], alpha]
            case 4: out += [eight(s[0]), eight(s[0]), eight(s[0]), eight(s[1])]
            default: out += s.map(eight)
            }
        }
        return out
    }

    /// The PNG file of `image`, each scanline with a random filter of `rng`'s choice.
    static func encode(_ image: Image, rng: inout SplitMix64) -> [UInt8] {
        let passes: [(Int, Int, Int, Int)] =
            image.interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        let bits = image.channels * image.depth
        let step = max(1, bits / 8)
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = (image.width - x0 + dx - 1) / dx
            let lines = (image.height - y0 + dy - 1) / dy
            guard columns > 0, lines > 0 else { continue }
            let rowBytes = (columns * bits + 7) / 8
            var above = [UInt8](repeating: 0, count: rowBytes)
            for line in 0..<lines {
                var row = [UInt8](repeating: 0, count: rowBytes)
                var bit = 0
                for column in 0..<columns {
                    let pixel = (y0 + line * dy) * image.width + x0 + column * dx
                    for channel in 0..<image.channels {
                        let v = image.samples[pixel * image.channels + channel]
                        if image.depth == 16 {
                            row[bit / 8] = UInt8(v >> 8)
                            row[bit / 8 + 1] = UInt8(v & 0xFF)
                        } else {
                            row[bit / 8] |= UInt8(v) << (8 - image.depth - bit % 8)
                        }
                        bit += image.depth
                    }
                }
                let filter = UInt8.random(in: 0...4, using: &rng)
                raw.append(filter)
                for i in 0..<rowBytes {
                    let a = i >= step ? Int(row[i - step]) : 0
                    let b = Int(above[i])
                    let c = i >= step ? Int(above[i - step]) : 0
                    let p = a + b - c
                    let paeth =
                        abs(p - a) <= abs(p - b) && abs(p - a) <= abs(p - c) ? a : abs(p - b) <= abs(p - c) ? b : c
                    let prediction = [0, a, b, (a + b) / 2, paeth][Int(filter)]
                    raw.append(UInt8(truncatingIfNeeded: Int(row[i]) - prediction))
                }
                above = row
            }
        }
        var header = [UInt8]()
        for value in [UInt32(image.width), UInt32(image.height)] { header += bigEndian(value) }
        header += [UInt8(image.depth), image.colorType, 0, 0, image.interlaced ? 1 : 0]
        var file: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        file += chunk("IHDR", header)
        file += chunk("gAMA", bigEndian(100_000))  // Gamma 1.0, as PngSuite's: ignored.
        if image.colorType == 3 { file += chunk("PLTE", image.palette) }
        if let transparency = image.transparency { file += chunk("tRNS", transparency) }
        let compressed = deflate(raw)
        // Split over IDAT chunks of varied sizes, as encoders may.
        var start = 0
        while start < compressed.count {
            let size = min(compressed.count - start, Int.random(in: 1...64, using: &rng))
            file += chunk("IDAT", Array(compressed[start..<(start + size)]))
            start += size
        }
        return file + chunk("IEND", [])
    }

    /// A chunk with its length and CRC (zlib's crc32, independent of the code under test).
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return bigEndian(UInt32(body.count)) + typed + bigEndian(UInt32(truncatingIfNeeded: crc))
    }

    /// A zlib stream of `bytes` at zlib's default level.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer {
                compress2($0.baseAddress, &size, source.baseAddress, uLong(source.count), 6)
            }
        }
        precondition(status == czlib_ok, "compress2 failed: \(status)")
        return Array(out.prefix(Int(size)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// libpng's RGBA of `bytes` (see `cpng_decode_rgba8`: no gamma, 16 bits scaled), or `nil`
    /// when libpng refuses them.
    static func libpng(_ bytes: [UInt8]) -> RGBAImage? {
        guard bytes.count >= 24 else { return nil }
        let width = Int(bytes[16..<20].reduce(0) { $0 << 8 | UInt32($1) })
        let height = Int(bytes[20..<24].reduce(0) { $0 << 8 | UInt32($1) })
        guard width > 0, height > 0, width * height <= 1 << 22 else { return nil }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        var (w, h): (UInt32, UInt32) = (0, 0)
        let status = bytes.withUnsafeBufferPointer { data in
            out.withUnsafeMutableBufferPointer {
                cpng_decode_rgba8(data.baseAddress, data.count, $0.baseAddress, $0.count, &w, &h)
            }
        }
        guard status == 0 else { return nil }
        return RGBAImage(width: Int(w), height: Int(h), pixels: out)
    }
}
