/// The Huffman codes of one ``RunLengthDeflate`` block, built from the counts of its
/// ``RunTokenizer`` tokens, and each token's whole bit string ready to write.
struct TokenCode {
    /// Code lengths of the 286 literal/length symbols (0 for unused symbols).
    let literalLengths: [UInt8]
    /// Code lengths of the 30 distance symbols; only distance 1 and the far distance (symbol 0
    /// and the far distance's) are used.
    let distanceLengths: [UInt8]
    /// Per token, its bits in the low 56 and their count in the top 8 (see
    /// ``DeflateBitStream/write(packed:)``): a literal's code, or a match's length code, extra
    /// length bits, distance code and extra distance bits, at most 15 + 5 + 15 + 13 bits.
    let packed: [UInt64]
    /// The end-of-block symbol (256), packed the same way.
    let endOfBlock: UInt64
    /// The most bits of any token: at most 15 + 5 + 1 when the far distance is 2...4 (two
    /// distance codes, no extra bits).
    let longest: UInt64

    /// The codes for tokens counted in `histogram` (``RunTokenizer/tokenCount`` counters),
    /// whose far matches repeat the bytes `farDistance` (``RunTokenizer/farDistances``,
    /// default 4) before: a dynamic block's, built for these counts.
    ///
    /// - Complexity: O(1): a few passes over the 768 tokens and 286 symbols.
    init(histogram: UnsafeBufferPointer<UInt32>, farDistance: Int = 4) {
        let far = Self.distanceSymbol(farDistance)
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        for byte in 0..<256 { literalCounts[byte] = Int(histogram[byte]) }
        for length in 3...258 {
            let near = Int(histogram[253 + length])
            let farCount = Int(histogram[509 + length])
            literalCounts[Int(RunLengthDeflate.lengthSymbol[length])] += near + farCount
            distanceCounts[0] += near
            distanceCounts[far.symbol] += farCount
        }
        literalCounts[256] = 1
        let literalLengths = HuffmanCode.lengths(for: literalCounts, limit: 15)
        var distanceLengths = HuffmanCode.lengths(for: distanceCounts, limit: 15)
        // A distance tree with one code must still be complete: give both distances a bit each.
        if distanceLengths.filter({ $0 > 0 }).count < 2 {
            distanceLengths[0] = 1
            distanceLengths[far.symbol] = 1
        }
        self.init(literalLengths: literalLengths, distanceLengths: distanceLengths, farDistance: farDistance)
    }

    /// The codes of deflate's fixed-Huffman block (RFC 1951 3.2.6), for far matches at
    /// `farDistance`: no trees to send, so cheaper than a dynamic block for a few tokens.
    init(fixedFarDistance farDistance: Int) {
        // All 288 symbols, 286 and 287 unused but counted: they come before the 9-bit codes.
        let literalLengths = (0..<288).map { symbol -> UInt8 in
            switch symbol {
            case ..<144: 8
            case ..<256: 9
            case ..<280: 7
            default: 8
            }
        }
        self.init(
            literalLengths: literalLengths, distanceLengths: [UInt8](repeating: 5, count: 30),
            farDistance: farDistance)
    }

    /// The codes of the given code lengths (canonical, as deflate's trees describe them).
    init(literalLengths: [UInt8], distanceLengths: [UInt8], farDistance: Int) {
        let far = Self.distanceSymbol(farDistance)
        let literalCodes = HuffmanCode.canonicalCodes(for: literalLengths)
        let distanceCodes = HuffmanCode.canonicalCodes(for: distanceLengths)
        func symbol(_ s: Int) -> (bits: UInt64, count: UInt64) {
            (UInt64(literalCodes[s]), UInt64(literalLengths[s]))
        }
        var packed = [UInt64](repeating: 0, count: RunTokenizer.tokenCount)
        for byte in 0..<256 { packed[byte] = symbol(byte).bits | symbol(byte).count << 56 }
        // Each distance: its code then its extra bits, and their count.
        let distances = [(0, UInt64(0), UInt64(0), 253), (far.symbol, far.extra, far.extraBits, 509)].map {
            (distance, extra, extraBits, offset) in
            let count = UInt64(distanceLengths[distance])
            return (UInt64(distanceCodes[distance]) | extra << count, count + extraBits, offset)
        }
        for length in 3...258 {
            let s = Int(RunLengthDeflate.lengthSymbol[length])
            let (code, codeCount) = symbol(s)
            let extraCount = UInt64(RunLengthDeflate.lengthExtraBits[s - 257])
            let extra = UInt64(length - Int(RunLengthDeflate.lengthBase[s - 257]))
            let lengthBits = code | extra << codeCount
            for (distanceBits, distanceCount, offset) in distances {
                let count = codeCount + extraCount + distanceCount
                packed[offset + length] = lengthBits | distanceBits << (codeCount + extraCount) | count << 56
            }
        }
        self.literalLengths = literalLengths
        self.distanceLengths = distanceLengths
        self.packed = packed
        endOfBlock = symbol(256).bits | symbol(256).count << 56
        longest = (packed.max() ?? 0) >> 56
    }

    /// The distance symbol (0...29) of `distance` (1...32768), its extra bits' value and count.
    static func distanceSymbol(_ distance: Int) -> (symbol: Int, extra: UInt64, extraBits: UInt64) {
        var symbol = 0
        while symbol < 29 && distanceBase[symbol + 1] <= distance { symbol += 1 }
        let extraBits = symbol < 4 ? 0 : UInt64(symbol / 2 - 1)
        return (symbol, UInt64(distance - distanceBase[symbol]), extraBits)
    }

    /// The first distance of each distance symbol.
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
}
