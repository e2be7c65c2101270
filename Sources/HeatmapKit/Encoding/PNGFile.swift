/// The chunks of a PNG file that decoding needs, read and checked: the signature, `IHDR`, the
/// palette and transparency, where the image data lies (`IDAT`, possibly split over many
/// chunks) and `IEND`. Every chunk's CRC is checked; ancillary chunks other than `tRNS` are
/// skipped (gamma, colour spaces and text change nothing here, as in Pillow); an unknown
/// critical chunk is an error.
struct PNGFile {
    /// The colour type of `IHDR`.
    enum ColorType: UInt8 {
        case grey = 0
        case rgb = 2
        case palette = 3
        case greyAlpha = 4
        case rgba = 6

        /// Samples per pixel.
        var channels: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        /// The bit depths PNG allows for this type.
        var depths: [Int] {
            switch self {
            case .grey: [1, 2, 4, 8, 16]
            case .palette: [1, 2, 4, 8]
            case .rgb, .greyAlpha, .rgba: [8, 16]
            }
        }
    }

    var width = 0
    var height = 0
    var bitDepth = 8
    var colorType = ColorType.rgba
    var interlaced = false
    /// RGBA of each palette entry, 256 of them (entries the file leaves out are opaque black).
    var palette: [UInt8] = []
    var paletteCount = 0
    /// The grey or RGB sample values (at the image's depth) that mean transparent.
    var transparentKey: [UInt16]?
    /// Where the image data is in the file, chunk by chunk.
    var data: [Range<Int>] = []

    private static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Bits per pixel.
    var bitsPerPixel: Int { colorType.channels * bitDepth }

    /// Reads the chunks of `bytes`.
    ///
    /// - Throws: ``PNGError`` (``PNGError/Kind/invalidData``) naming what is wrong.
    init(_ bytes: UnsafeRawBufferPointer) throws(PNGError) {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(Self.signature) else {
            throw Self.invalid(bytes.isEmpty ? "the data is empty" : "the bytes do not start with PNG's signature")
        }
        var offset = 8
        var seenHeader = false
        var seenData = false
        var dataEnded = false
        var seenPalette = false
        var transparency: Range<Int>?
        while true {
            guard bytes.count - offset >= 12 else {
                throw Self.invalid("the file ends before its IEND chunk (truncated at byte \(bytes.count)?)")
            }
            let length = Int(Self.bigEndian(bytes, offset))
            let type = Self.bigEndian(bytes, offset + 4)
            let name = Self.name(type)
            guard length <= Int(Int32.max), length <= bytes.count - offset - 12 else {
                throw Self.invalid("chunk \(name) at byte \(offset) runs past the end of the file (truncated?)")
            }
            let body = (offset + 8)..<(offset + 8 + length)
            let stored = Self.bigEndian(bytes, body.upperBound)
            let computed = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<body.upperBound]))
            guard stored == computed else { throw Self.invalid("chunk \(name) at byte \(offset) fails its CRC") }
            offset = body.upperBound + 4
            if !seenHeader {
                guard type == 0x4948_4452 else { throw Self.invalid("the first chunk is \(name), not IHDR") }
                try readHeader(UnsafeRawBufferPointer(rebasing: bytes[body]))
                seenHeader = true
                continue
            }
            if seenData && type != 0x4944_4154 { dataEnded = true }
            switch type {
            case 0x4944_4154:  // IDAT
                guard !dataEnded else { throw Self.invalid("IDAT chunks are not consecutive") }
                guard colorType != .palette || seenPalette else { throw Self.invalid("a palette image has no PLTE") }
                seenData = true
                if !body.isEmpty { data.append(body) }
            case 0x504C_5445:  // PLTE
                guard !seenData, !seenPalette else { throw Self.invalid("PLTE is misplaced or repeated") }
                guard colorType != .grey, colorType != .greyAlpha else {
                    throw Self.invalid("a grey image has a PLTE chunk")
                }
                guard length % 3 == 0, (3...768).contains(length) else {
                    throw Self.invalid("PLTE holds \(length) bytes, not 3 to 768 in threes")
                }
                seenPalette = true
                if colorType == .palette { readPalette(UnsafeRawBufferPointer(rebasing: bytes[body])) }
            case 0x7452_4E53:  // tRNS
                if !seenData { transparency = body }
            case 0x4945_4E44:  // IEND
                guard seenData else { throw Self.invalid("the file has no IDAT chunk") }
                if let transparency { readTransparency(UnsafeRawBufferPointer(rebasing: bytes[transparency])) }
                return
            case 0x4948_4452:
                throw Self.invalid("IHDR is repeated")
            default:
                // Bit 5 of the first letter: lower case is ancillary (skipped), upper case critical.
                guard type & 0x2000_0000 != 0 else { throw Self.invalid("unknown critical chunk \(name)") }
            }
        }
    }

    private mutating func readHeader(_ body: UnsafeRawBufferPointer) throws(PNGError) {
        guard body.count == 13 else { throw Self.invalid("IHDR holds \(body.count) bytes, not 13") }
        let width = Self.bigEndian(body, 0)
        let height = Self.bigEndian(body, 4)
        guard width > 0, height > 0, width <= UInt32(Int32.max), height <= UInt32(Int32.max) else {
            throw Self.invalid("the image is \(width)×\(height) pixels: sides must be 1 to 2³¹−1")
        }
        (self.width, self.height) = (Int(width), Int(height))
        guard let type = ColorType(rawValue: body[9]) else { throw Self.invalid("colour type \(body[9]) is not PNG's") }
        guard type.depths.contains(Int(body[8])) else {
            throw Self.invalid("bit depth \(body[8]) is not allowed with colour type \(body[9])")
        }
        guard body[10] == 0, body[11] == 0 else {
            throw Self.invalid("compression method \(body[10]) or filter method \(body[11]) is not 0")
        }
        guard body[12] <= 1 else { throw Self.invalid("interlace method \(body[12]) is neither 0 nor 1 (Adam7)") }
        (colorType, bitDepth, interlaced) = (type, Int(body[8]), body[12] == 1)
    }

    private mutating func readPalette(_ body: UnsafeRawBufferPointer) {
        paletteCount = body.count / 3
        palette = [UInt8](repeating: 0, count: 256 * 4)
        for entry in 0..<256 { palette[entry * 4 + 3] = 255 }
        for entry in 0..<paletteCount {
            for channel in 0..<3 { palette[entry * 4 + channel] = body[entry * 3 + channel] }
        }
    }

    /// Alpha for palette entries, or the transparent grey or RGB value (its bits beyond the
    /// image's depth dropped); a `tRNS` of the wrong size (or for a type with alpha) is
    /// ignored, as libpng does.
    private mutating func readTransparency(_ body: UnsafeRawBufferPointer) {
        let mask = UInt16(truncatingIfNeeded: (1 << bitDepth) - 1)
        switch colorType {
        case .palette:
            guard body.count <= paletteCount else { return }
            for entry in 0..<body.count { palette[entry * 4 + 3] = body[entry] }
        case .grey:
            guard body.count == 2 else { return }
            transparentKey = [(UInt16(body[0]) << 8 | UInt16(body[1])) & mask]
        case .rgb:
            guard body.count == 6 else { return }
            transparentKey = (0..<3).map { (UInt16(body[2 * $0]) << 8 | UInt16(body[2 * $0 + 1])) & mask }
        case .greyAlpha, .rgba:
            return
        }
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    /// A chunk type as text (`IDAT`), or in hex when it is not four letters.
    private static func name(_ type: UInt32) -> String {
        let letters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        guard letters.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
            return "0x" + String(type, radix: 16)
        }
        return String(decoding: letters, as: UTF8.self)
    }

    static func invalid(_ reason: String) -> PNGError { PNGError(.invalidData, "cannot decode PNG: \(reason)") }
}
