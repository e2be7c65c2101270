/// The Huffman codes of one ``RunLengthDeflate`` block, built from the counts of its
/// ``RunTokenizer`` tokens, and each token's whole bit string ready to write.
struct TokenCode {
    /// Code lengths of the 286 literal/length symbols (0 for unused symbols).
    let literalLengths: [UInt8]
    /// Code lengths of the 30 distance symbols; only distance 1 and the far distance 2...4
    /// (symbols 0 and 1...3) are used.
    let distanceLengths: [UInt8]
    /// Per token, its bits in the low 56 and their count in the top 8 (see
    /// ``DeflateBitStream/write(packed:)``): a literal's code, or a match's length code, extra
    /// length bits and distance code, at most 15 + 5 + 15 bits.
    let packed: [UInt64]
    /// The end-of-block symbol (256), packed the same way.
    let endOfBlock: UInt64
    /// The most bits of any token: at most 15 + 5 + 1, as there are only two distance codes.
    let longest: UInt64

    /// The codes for tokens counted in `histogram` (``RunTokenizer/tokenCount`` counters),
    /// whose far matches repeat the bytes `farDistance` (2...4, default 4) before.
    ///
    /// - Complexity: O(1): a few passes over the 768 tokens and 286 symbols.
    init(histogram: UnsafeBufferPointer<UInt32>, farDistance: Int = 4) {
        let farSymbol = farDistance - 1
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        for byte in 0..<256 { literalCounts[byte] = Int(histogram[byte]) }
        for length in 3...258 {
            let near = Int(histogram[253 + length])
            let far = Int(histogram[509 + length])
            literalCounts[Int(RunLengthDeflate.lengthSymbol[length])] += near + far
            distanceCounts[0] += near
            distanceCounts[farSymbol] += far
        }
        literalCounts[256] = 1
        let literalLengths = HuffmanCode.lengths(for: literalCounts, limit: 15)
        var distanceLengths = HuffmanCode.lengths(for: distanceCounts, limit: 15)
        // A distance tree with one code must still be complete: give both distances a bit each.
        if distanceLengths.filter({ $0 > 0 }).count < 2 {
            distanceLengths[0] = 1
            distanceLengths[farSymbol] = 1
        }
        let literalCodes = HuffmanCode.canonicalCodes(for: literalLengths)
        let distanceCodes = HuffmanCode.canonicalCodes(for: distanceLengths)
        func symbol(_ s: Int) -> (bits: UInt64, count: UInt64) {
            (UInt64(literalCodes[s]), UInt64(literalLengths[s]))
        }
        var packed = [UInt64](repeating: 0, count: RunTokenizer.tokenCount)
        for byte in 0..<256 { packed[byte] = symbol(byte).bits | symbol(byte).count << 56 }
        for length in 3...258 {
            let s = Int(RunLengthDeflate.lengthSymbol[length])
            let (code, codeCount) = symbol(s)
            let extraCount = UInt64(RunLengthDeflate.lengthExtraBits[s - 257])
            let extra = UInt64(length - Int(RunLengthDeflate.lengthBase[s - 257]))
            let lengthBits = code | extra << codeCount
            for (distance, offset) in [(0, 253), (farSymbol, 509)] {
                let distanceBits = UInt64(distanceCodes[distance]) << (codeCount + extraCount)
                let count = codeCount + extraCount + UInt64(distanceLengths[distance])
                packed[offset + length] = lengthBits | distanceBits | count << 56
            }
        }
        self.literalLengths = literalLengths
        self.distanceLengths = distanceLengths
        self.packed = packed
        endOfBlock = symbol(256).bits | symbol(256).count << 56
        longest = (packed.max() ?? 0) >> 56
    }
}
