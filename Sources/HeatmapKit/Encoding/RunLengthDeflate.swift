/// A fast deflate (RFC 1951) compressor for filtered heatmap scanlines, in a zlib (RFC 1950)
/// wrapper: one Huffman block (dynamic, or fixed when that is smaller) whose only
/// back-references repeat the previous byte (distance 1) or the bytes a fixed distance before
/// (the previous RGBA pixel, distance 4, by default).
///
/// After PNG's `up` filter a heatmap tile is mostly runs of zeros (transparent or vertically
/// constant areas) and short repeating pixel deltas; run-length matches plus Huffman codes
/// built for the tile's own symbols capture nearly all of it, without zlib's hash chains: one
/// vectorised pass marks equal bytes, a parse on those bit masks (``RunTokenizer``) makes and
/// counts the tokens, and each token is written as one precomputed code (``TokenCode``).
enum RunLengthDeflate {
    /// The zlib stream of `input`.
    ///
    /// - Complexity: O(n).
    static func compress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        Array(compress(input, prefix: 0, suffix: 8).dropLast(8))
    }

    /// The zlib stream of `input`, after `prefix` and before `suffix` bytes that the caller
    /// fills in (a PNG chunk's header and its CRC, say); the array holds exactly the three.
    ///
    /// Two passes over the bytes (equality masks, then tokens with their counts) and one over
    /// the tokens (their codes); the stream is written straight into the array, whose size is
    /// known from the code lengths and counts before any token is written.
    ///
    /// Matches repeat the byte before or the bytes `farDistance` (``RunTokenizer/farDistances``) before.
    /// With `segmentBytes`, the tokens go in blocks of their own Huffman codes where the
    /// statistics change (``splitBlocks(_:count:equalAt1:equalAt4:tokens:histograms:segmentBytes:weighingShortMatches:)``),
    /// and with `weighingShortMatches` as well (far distance 2 only), short matches that cost more
    /// than their bytes as literals are written as literals.
    ///
    /// - Precondition: `suffix >= 8`: the bit stream stores 8 bytes at a time.
    /// - Complexity: O(n).
    static func compress(
        _ input: UnsafeBufferPointer<UInt8>, prefix: Int, suffix: Int, farDistance: Int = 4, segmentBytes: Int? = nil,
        weighingShortMatches: Bool = false
    ) -> [UInt8] {
        precondition(suffix >= 8, "the bit stream stores up to 7 bytes past its end")
        precondition(!weighingShortMatches || farDistance == 2, "short matches are weighed at the far distance 2")
        let n = input.count
        let words = RunTokenizer.maskWordCount(byteCount: n)
        let segments = segmentBytes.map { max(1, (n + $0 - 1) / $0) } ?? 1
        let countersBytes = segments * RunTokenizer.tokenCount * 4
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: words * 16 + countersBytes + n * 2, alignment: 16)
        defer { scratch.deallocate() }
        let equalAt1 = scratch.bindMemory(to: UInt64.self, capacity: 2 * words)
        let equalAt4 = equalAt1 + words
        let histogram = (scratch + words * 16).bindMemory(to: UInt32.self, capacity: segments * RunTokenizer.tokenCount)
        histogram.initialize(repeating: 0, count: RunTokenizer.tokenCount)
        let tokens = (scratch + words * 16 + countersBytes).bindMemory(to: UInt16.self, capacity: n)
        var blocks = [Block(tokens: tokens, count: 0, histogram: histogram)]
        if let bytes = input.baseAddress {
            RunTokenizer.equalityMasks(bytes, count: n, near: equalAt1, far: equalAt4, distance: farDistance)
            if let segmentBytes, segments > 1 {
                blocks = splitBlocks(
                    bytes, count: n, equalAt1: equalAt1, equalAt4: equalAt4, tokens: tokens, histograms: histogram,
                    segmentBytes: segmentBytes, weighingShortMatches: weighingShortMatches)
            } else {
                blocks[0].count = RunTokenizer.tokenize(
                    bytes, count: n, equalAt1: equalAt1, equalAt4: equalAt4, tokens: tokens, histogram: histogram)
            }
        }
        return stream(
            blocks: blocks, checksum: Adler32.checksum(input), prefix: prefix, suffix: suffix, farDistance: farDistance)
    }

    /// The zlib stream of the tokens of a parse (``RunTokenizer``) counted in `histogram`,
    /// whose bytes have the Adler-32 `checksum`, between `prefix` and `suffix` bytes as in
    /// ``compress(_:prefix:suffix:farDistance:)``; far matches repeat the bytes `farDistance` before.
    ///
    /// - Precondition: `suffix >= 8`.
    /// - Complexity: O(tokens).
    static func stream(
        tokens: UnsafePointer<UInt16>, count tokenCount: Int, histogram: UnsafePointer<UInt32>, checksum: UInt32,
        prefix: Int, suffix: Int, farDistance: Int = 4
    ) -> [UInt8] {
        stream(
            blocks: [Block(tokens: tokens, count: tokenCount, histogram: histogram)], checksum: checksum,
            prefix: prefix, suffix: suffix, farDistance: farDistance)
    }

    /// Writes the code lengths of both trees, run-length coded with the code-length alphabet.
    static func writeTrees(code: TokenCode, into writer: inout DeflateBitStream) {
        writeTrees(literalLengths: code.literalLengths, distanceLengths: code.distanceLengths, into: &writer)
    }

    /// The bits of the tokens counted in `histogram` and the end of block in deflate's fixed
    /// codes (``TokenCode/init(fixedFarDistance:)``), far matches at `farDistance`.
    static func fixedBodyBits(_ histogram: UnsafePointer<UInt32>, farDistance: Int) -> UInt64 {
        var bits: UInt64 = 7
        var farMatches: UInt64 = 0
        for token in 0..<RunTokenizer.tokenCount {
            bits += UInt64(histogram[token]) * UInt64(fixedTokenBits[token])
            if token >= 512 { farMatches += UInt64(histogram[token]) }
        }
        return bits + farMatches * TokenCode.distanceSymbol(farDistance).extraBits
    }

    /// Each token's bits in the fixed codes, less a far match's extra distance bits.
    static let fixedTokenBits: [UInt8] = (0..<RunTokenizer.tokenCount).map { token in
        if token < 144 { return 8 }
        if token < 256 { return 9 }
        let length = (token - 256) % 256 + 3
        let symbol = Int(lengthSymbol[length])
        return (symbol < 280 ? 7 : 8) + lengthExtraBits[symbol - 257] + 5
    }

    /// Writes the code lengths of both trees, run-length coded with the code-length alphabet.
    static func writeTrees(literalLengths: [UInt8], distanceLengths: [UInt8], into writer: inout DeflateBitStream) {
        var literalCount = 286
        while literalCount > 257 && literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = 30
        while distanceCount > 1 && distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }
        let all = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])
        // (symbol, extra value, extra bits) of the code-length alphabet.
        var symbols: [(UInt8, UInt8, UInt8)] = []
        var i = 0
        while i < all.count {
            let value = all[i]
            var run = 1
            while i + run < all.count && all[i + run] == value { run += 1 }
            var left = run
            if value == 0 {
                while left >= 11 {
                    let take = min(138, left)
                    symbols.append((18, UInt8(take - 11), 7))
                    left -= take
                }
                if left >= 3 {
                    symbols.append((17, UInt8(left - 3), 3))
                    left = 0
                }
            } else {
                symbols.append((value, 0, 0))
                left -= 1
                while left >= 3 {
                    let take = min(6, left)
                    symbols.append((16, UInt8(take - 3), 2))
                    left -= take
                }
            }
            for _ in 0..<left { symbols.append((value, 0, 0)) }
            i += run
        }
        var counts = [Int](repeating: 0, count: 19)
        for s in symbols { counts[Int(s.0)] += 1 }
        let lengths = HuffmanCode.lengths(for: counts, limit: 7)
        let codes = HuffmanCode.canonicalCodes(for: lengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var orderCount = 19
        while orderCount > 4 && lengths[order[orderCount - 1]] == 0 { orderCount -= 1 }
        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceCount - 1), bits: 5)
        writer.write(UInt64(orderCount - 4), bits: 4)
        for k in 0..<orderCount { writer.write(UInt64(lengths[order[k]]), bits: 3) }
        for (symbol, extra, bits) in symbols {
            writer.write(UInt64(codes[Int(symbol)]), bits: UInt64(lengths[Int(symbol)]))
            if bits > 0 { writer.write(UInt64(extra), bits: UInt64(bits)) }
        }
    }

    /// The length symbol (257...285) of each match length 0...258 (0...2 unused).
    static let lengthSymbol: [UInt16] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        var symbol = 0
        for k in 0..<29 where Int(lengthBase[k]) <= length { symbol = k }
        return UInt16(257 + symbol)
    }
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
}
