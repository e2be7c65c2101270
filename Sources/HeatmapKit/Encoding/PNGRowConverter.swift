/// Turns reconstructed scanlines of any PNG colour type and bit depth into 8-bit RGBA pixels:
/// grey scaled exactly (×255, ×85, ×17 for 1, 2, 4 bits), palette entries looked up with their
/// `tRNS` alpha, the `tRNS` grey or RGB value (compared at full depth) made transparent, 16-bit
/// samples reduced as `round(v × 255 / 65535)`.
struct PNGRowConverter {
    private let colorType: PNGFile.ColorType
    private let depth: Int
    private let palette: [UInt8]
    private let key: [UInt16]?

    init(_ file: PNGFile) {
        colorType = file.colorType
        depth = file.bitDepth
        palette = file.palette
        key = file.transparentKey
    }

    /// A 16-bit sample as 8 bits, rounded to nearest (never a tie: v × 255 / 65535 = v / 257).
    @inline(__always)
    static func reduce(_ value: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: (UInt32(value) &* 255 &+ 32767) / 65535) }

    /// Writes the `columns` pixels of `row` to `out`, `stride` bytes apart.
    func convert(_ row: UnsafePointer<UInt8>, columns: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int) {
        switch (colorType, depth) {
        case (.rgba, 8):
            for i in 0..<columns {
                let to = out + i &* stride
                let from = row + i &* 4
                to[0] = from[0]
                to[1] = from[1]
                to[2] = from[2]
                to[3] = from[3]
            }
        case (.rgb, 8) where key == nil:
            for i in 0..<columns {
                let to = out + i &* stride
                let from = row + i &* 3
                to[0] = from[0]
                to[1] = from[1]
                to[2] = from[2]
                to[3] = 255
            }
        case (.palette, _):
            palette.withUnsafeBufferPointer { entries in
                guard let entries = entries.baseAddress else {
                    for i in 0..<columns { (out + i &* stride).update(repeating: 0, count: 4) }
                    return
                }
                for i in 0..<columns {
                    let entry = entries + Int(sample(row, i)) &* 4
                    let to = out + i &* stride
                    to[0] = entry[0]
                    to[1] = entry[1]
                    to[2] = entry[2]
                    to[3] = entry[3]
                }
            }
        default:
            convertSamples(row, columns: columns, into: out, stride: stride)
        }
    }

    /// Every other case, a sample at a time.
    private func convertSamples(
        _ row: UnsafePointer<UInt8>, columns: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let channels = colorType.channels
        for i in 0..<columns {
            let to = out + i &* stride
            let first = i &* channels
            switch colorType {
            case .grey:
                let v = sample(row, first)
                let grey = scaled(v)
                to[0] = grey
                to[1] = grey
                to[2] = grey
                to[3] = key.map { $0[0] == v ? 0 : 255 } ?? 255
            case .greyAlpha:
                let grey = scaled(sample(row, first))
                to[0] = grey
                to[1] = grey
                to[2] = grey
                to[3] = scaled(sample(row, first + 1))
            case .rgb:
                let (r, g, b) = (sample(row, first), sample(row, first + 1), sample(row, first + 2))
                to[0] = scaled(r)
                to[1] = scaled(g)
                to[2] = scaled(b)
                to[3] = key.map { $0[0] == r && $0[1] == g && $0[2] == b ? 0 : 255 } ?? 255
            case .rgba:
                for c in 0..<4 { to[c] = scaled(sample(row, first + c)) }
            case .palette:
                break  // Converted above.
            }
        }
    }

    /// Sample `index` of the row (counting every channel), at the image's depth.
    @inline(__always)
    private func sample(_ row: UnsafePointer<UInt8>, _ index: Int) -> UInt16 {
        switch depth {
        case 8: return UInt16(row[index])
        case 16: return UInt16(row[2 &* index]) << 8 | UInt16(row[2 &* index &+ 1])
        default:
            let bit = index &* depth
            let shift = 8 &- depth &- (bit & 7)
            return UInt16((row[bit >> 3] >> UInt8(shift)) & UInt8((1 << depth) - 1))
        }
    }

    /// A sample at the image's depth as 8 bits.
    @inline(__always)
    private func scaled(_ value: UInt16) -> UInt8 {
        switch depth {
        case 16: return Self.reduce(value)
        case 8: return UInt8(truncatingIfNeeded: value)
        default: return UInt8(truncatingIfNeeded: value &* (255 / ((1 << depth) - 1)))
        }
    }
}
