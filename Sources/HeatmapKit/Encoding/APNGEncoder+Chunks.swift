import HeatmapCore

extension APNGEncoder {
    /// The signature, `IHDR`, `acTL`, and for a palette animation `PLTE` and `tRNS`.
    func head() -> [UInt8] {
        var bytes: [UInt8]
        if let palette {
            bytes = PNGEncoder.paletteHead(width: width, height: height, depth: palette.bitDepth, palette: palette)
        } else {
            bytes = [UInt8](repeating: 0, count: 33)
            bytes.withUnsafeMutableBufferPointer { buffer in
                guard let out = buffer.baseAddress else { return }
                PNGEncoder.storeBigEndian(0x8950_4E47, at: out)  // The signature: \x89 P N G \r \n \x1A \n.
                PNGEncoder.storeBigEndian(0x0D0A_1A0A, at: out + 4)
                PNGEncoder.storeBigEndian(UInt32(width), at: out + 16)
                PNGEncoder.storeBigEndian(UInt32(height), at: out + 20)
                out[24] = 8  // Bit depth; then colour type 6 (RGBA), compression, filter, interlace 0.
                out[25] = 6
                PNGEncoder.finishChunk(type: 0x4948_4452, dataCount: 13, at: out + 8)  // IHDR
            }
        }
        // acTL goes anywhere before the first IDAT: here, after PLTE and tRNS when they are there.
        var control = [UInt8](repeating: 0, count: 20)
        control.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            PNGEncoder.storeBigEndian(UInt32(frameCount), at: out + 8)
            PNGEncoder.storeBigEndian(UInt32(loopCount), at: out + 12)
            PNGEncoder.finishChunk(type: 0x6163_544C, dataCount: 8, at: out)  // acTL
        }
        return bytes + control
    }

    /// Writes the 38 bytes of a whole-image `fcTL` at `out`: the frame covers the canvas from
    /// its top-left corner, shows `milliseconds`, is left as it is after (dispose `none`), and
    /// replaces what was there, transparent pixels too (blend `source`).
    func writeFrameControl(sequence: UInt32, milliseconds: UInt16, at out: UnsafeMutablePointer<UInt8>) {
        (out + 8).initialize(repeating: 0, count: 26)
        PNGEncoder.storeBigEndian(sequence, at: out + 8)
        PNGEncoder.storeBigEndian(UInt32(width), at: out + 12)
        PNGEncoder.storeBigEndian(UInt32(height), at: out + 16)
        // x and y offsets stay 0; the delay is milliseconds / 1000; dispose_op and blend_op are 0.
        out[28] = UInt8(truncatingIfNeeded: milliseconds >> 8)
        out[29] = UInt8(truncatingIfNeeded: milliseconds)
        out[31] = 0xE8  // 1000, big-endian.
        out[30] = 0x03
        PNGEncoder.finishChunk(type: 0x6663_544C, dataCount: 26, at: out)  // fcTL
    }

    /// The zlib stream of `frame`'s filtered rows, after `prefix` bytes and before 8 spare ones:
    /// palette indices or RGBA, deflated as ``png`` says.
    func frameData(_ frame: RGBAImage, prefix: Int) throws(PNGError) -> [UInt8] {
        if let palette {
            let indices = try Self.indices(of: frame, in: palette, frame: framesWritten + 1)
            return try indices.withUnsafeBufferPointer { (indices) throws(PNGError) -> [UInt8] in
                guard let base = indices.baseAddress else { throw PNGError(.invalidImage, "the frame has no pixels") }
                return try indexedData(base, depth: palette.bitDepth, prefix: prefix)
            }
        }
        if png.compressor == .runLength {
            let bandRows = PNGBandStream.bandRows(width: width, height: height)
            return PNGBandStream.with(width: width, height: height, bandRows: bandRows, filter: png.filter) { stream in
                frame.pixels.withUnsafeBytes { pixels in
                    guard let base = pixels.baseAddress else { return }
                    stream.append(image: base)
                }
                return stream.stream(prefix: prefix, suffix: 8)
            }
        }
        let filtered = PNGRowFilter.filterRows(
            of: frame.pixels, rowBytes: width * 4, height: height, filter: png.filter)
        return try filtered.withUnsafeBufferPointer { (data) throws(PNGError) -> [UInt8] in
            try PNGEncoder.zlibStream(data, level: png.compressionLevel, prefix: prefix, suffix: 8)
        }
    }

    /// ``frameData(_:prefix:)`` of palette indices, one byte a pixel, packed at `depth` bits.
    private func indexedData(_ indices: UnsafePointer<UInt8>, depth: Int, prefix: Int) throws(PNGError) -> [UInt8] {
        let stride = (width * depth + 7) / 8 + 1
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
        defer { filtered.deallocate() }
        PNGEncoder.filterIndexRows(
            indices, width: width, height: height, depth: depth, filter: png.paletteFilter, into: filtered)
        let data = UnsafeBufferPointer(start: filtered, count: stride * height)
        switch png.compressor {
        case .runLength:
            // A far match repeats the index 2 before, as in PNGEncoder's palette images.
            return RunLengthDeflate.compress(data, prefix: prefix, suffix: 8, farDistance: 2)
        case .zlib:
            return try PNGEncoder.zlibStream(data, level: png.compressionLevel, prefix: prefix, suffix: 8)
        }
    }
}
