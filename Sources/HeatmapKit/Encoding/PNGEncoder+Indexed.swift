import CZlib

extension PNGEncoder {
    /// The palette PNG (colour type 3) of `width × height` pixels given as indices into
    /// `palette`, one byte a pixel, row-major: packed at the palette's ``PNGPalette/bitDepth``,
    /// filtered with ``paletteFilter`` (a pixel's left neighbour one byte before), deflated with
    /// ``compressor``; `PLTE` and, unless every colour is opaque, `tRNS` before the data.
    /// With ``Compressor/runLength``, rows of 1 or 2 bits a pixel are not filtered and their
    /// far matches repeat the row above (``packedRowsAbove``).
    ///
    /// - Precondition: `width, height > 0`, every index below `palette.count`.
    func indexedPNG(
        indices: UnsafePointer<UInt8>, width: Int, height: Int, palette: PNGPalette
    ) throws(PNGError) -> [UInt8] {
        let depth = palette.bitDepth
        let rowBytes = (width * depth + 7) / 8
        let stride = rowBytes + 1
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
        defer { filtered.deallocate() }
        let rowsAbove =
            packedRowsAbove && compressor == .runLength && depth <= 2
            && RunTokenizer.farDistances.contains(stride)
        Self.filterIndexRows(
            indices, width: width, height: height, depth: depth, filter: rowsAbove ? .none : paletteFilter,
            into: filtered)
        let head = Self.paletteHead(width: width, height: height, depth: depth, palette: palette)
        let data = UnsafeBufferPointer(start: filtered, count: stride * height)
        var bytes: [UInt8]
        switch compressor {
        case .runLength:
            // A far match repeats the row above (packed rows: a spot's outline changes little
            // from row to row), or the index 2 before (a pixel pattern of period two).
            bytes = RunLengthDeflate.compress(
                data, prefix: head.count + 8, suffix: 16, farDistance: rowsAbove ? stride : 2,
                segmentBytes: Self.paletteSegmentBytes, weighingShortMatches: !rowsAbove)
        case .zlib:
            bytes = try Self.zlibStream(data, level: compressionLevel, prefix: head.count + 8, suffix: 16)
        }
        let streamCount = bytes.count - head.count - 24
        guard streamCount <= Int(Int32.max) else {
            throw PNGError(
                .imageTooLarge, "compressed data is \(streamCount) bytes, over PNG's 2³¹−1 byte chunk limit")
        }
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            out.update(from: head, count: head.count)
            let idat = out + head.count
            Self.finishChunk(type: 0x4944_4154, dataCount: streamCount, at: idat)  // IDAT
            Self.finishChunk(type: 0x4945_4E44, dataCount: 0, at: idat + 12 + streamCount)  // IEND
        }
        return bytes
    }

    /// The bytes of filtered rows after which the run-length deflate may start a block with
    /// codes of its own (``RunLengthDeflate/splitBlocks(_:count:equalAt1:equalAt4:tokens:histograms:segmentBytes:weighingShortMatches:)``).
    static let paletteSegmentBytes = 32768

    /// The signature, `IHDR` (colour type 3), `PLTE` and `tRNS` of a palette PNG, whole.
    static func paletteHead(width: Int, height: Int, depth: Int, palette: PNGPalette) -> [UInt8] {
        let plte = palette.plteData
        let trns = palette.trnsData
        let count = 8 + 25 + 12 + plte.count + (trns.isEmpty ? 0 : 12 + trns.count)
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let out = buffer.baseAddress else { return }
            storeBigEndian(0x8950_4E47, at: out)  // The signature: \x89 P N G \r \n \x1A \n.
            storeBigEndian(0x0D0A_1A0A, at: out + 4)
            storeBigEndian(UInt32(width), at: out + 16)
            storeBigEndian(UInt32(height), at: out + 20)
            (out + 24).initialize(repeating: 0, count: 5)
            out[24] = UInt8(depth)  // Bit depth; then colour type 3 (palette), compression, filter, interlace 0.
            out[25] = 3
            finishChunk(type: 0x4948_4452, dataCount: 13, at: out + 8)  // IHDR
            var next = out + 33
            for (type, data) in [(UInt32(0x504C_5445), plte), (0x7452_4E53, trns)] where !data.isEmpty {
                (next + 8).initialize(from: data, count: data.count)  // PLTE, tRNS
                finishChunk(type: type, dataCount: data.count, at: next)
                next += 12 + data.count
            }
            initialized = count
        }
    }

    /// Packs each row of indices at `depth` bits a pixel (the leftmost pixel in the high bits)
    /// and writes it filtered: `height` rows of a filter type byte and `(width·depth + 7) / 8`
    /// bytes at `out`; a row of zeros (transparent, as index 0 is when the image has it) is
    /// written unfiltered, type 0.
    static func filterIndexRows(
        _ indices: UnsafePointer<UInt8>, width: Int, height: Int, depth: Int, filter: Filter,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let rowBytes = (width * depth + 7) / 8
        let fixedType = PNGRowFilter.fixedType(of: filter)
        // The row above (zeros before the first), the packed row, and the adaptive filter's two.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * rowBytes)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: 4 * rowBytes)
        var above = UnsafeMutablePointer(scratch)
        var packed = scratch + rowBytes
        var candidate = scratch + 2 * rowBytes
        var best = scratch + 3 * rowBytes
        for y in 0..<height {
            let source = indices + y * width
            let row: UnsafePointer<UInt8>
            let previous: UnsafePointer<UInt8>
            if depth == 8 {
                row = source
                previous = y == 0 ? UnsafePointer(above) : source - width
            } else {
                pack(source, count: width, depth: depth, into: packed)
                row = UnsafePointer(packed)
                previous = UnsafePointer(above)
            }
            let target = out + y * (rowBytes + 1)
            if isZero(row, count: rowBytes) {
                // A transparent row, whatever the filter: type "none" and zeros, so that the runs of
                // zeros of empty rows go on through their type bytes.
                target.initialize(repeating: 0, count: rowBytes + 1)
            } else {
                PNGRowFilter.filterRow(
                    row, previous: previous, into: target, count: rowBytes, fixedType: fixedType,
                    candidate: &candidate, best: &best, bytesPerPixel: 1)
            }
            if depth < 8 { swap(&above, &packed) }
        }
    }

    /// Whether the `count` bytes at `bytes` are all zero, eight at a time.
    @inline(__always)
    static func isZero(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(bytes)
        var i = 0
        var any: UInt64 = 0
        while i + 8 <= count {
            any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            any |= UInt64(bytes[i])
            i += 1
        }
        return any == 0
    }

    /// Packs `count` indices below 2^`depth` into bytes, `8 / depth` a byte, high bits first;
    /// eight indices (a word) at a time, zero words at once.
    @inline(__always)
    static func pack(
        _ indices: UnsafePointer<UInt8>, count: Int, depth: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let raw = UnsafeRawPointer(indices)
        let perWord = depth  // Output bytes for 8 indices.
        var i = 0
        var o = 0
        while i + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if word == 0 {
                for k in 0..<perWord { out[o + k] = 0 }
            } else if depth == 1 {
                // Bit 8k of the word (index k) lands on bit 63 − k: one multiply gathers the byte.
                out[o] = UInt8(truncatingIfNeeded: ((word & 0x0101_0101_0101_0101) &* 0x8040_2010_0804_0201) >> 56)
            } else {
                packBytes(indices + i, count: 8, depth: depth, into: out + o)
            }
            i += 8
            o += perWord
        }
        if i < count { packBytes(indices + i, count: count - i, depth: depth, into: out + o) }
    }

    /// ``pack(_:count:depth:into:)`` one index at a time; the last byte is padded with zeros.
    static func packBytes(
        _ indices: UnsafePointer<UInt8>, count: Int, depth: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        let perByte = 8 / depth
        var i = 0
        var o = 0
        while i < count {
            var byte: UInt8 = 0
            for k in 0..<perByte where i + k < count {
                byte |= indices[i + k] << UInt8(8 - depth * (k + 1))
            }
            out[o] = byte
            o += 1
            i += perByte
        }
    }

    /// zlib's `compress2` of `data` at `level`, after `prefix` and before `suffix` bytes.
    static func zlibStream(
        _ data: UnsafeBufferPointer<UInt8>, level: CompressionLevel, prefix: Int, suffix: Int
    ) throws(PNGError) -> [UInt8] {
        guard let sourceCount = uLong(exactly: data.count) else {
            throw PNGError(.imageTooLarge, "the image is too large for zlib; split it into tiles")
        }
        let bound = Int(compressBound(sourceCount))
        var status = czlib_ok
        let bytes = [UInt8](unsafeUninitializedCapacity: prefix + bound + suffix) { buffer, count in
            guard let out = buffer.baseAddress else { return }
            var destinationCount = uLong(bound)
            status = compress2(out + prefix, &destinationCount, data.baseAddress, sourceCount, Int32(level.value))
            count = status == czlib_ok ? prefix + Int(destinationCount) + suffix : 0
        }
        guard status == czlib_ok else {
            throw PNGError(.compressionFailed, "zlib compress2 failed with code \(status) at level \(level.value)")
        }
        return bytes
    }
}
