extension RunLengthDeflate {
    /// Parses `bytes` (whose equality masks are `equalAt1` and `equalAt4`) into `tokens` in
    /// segments of `segmentBytes`, each counted into its own ``RunTokenizer/tokenCount``
    /// counters of `histograms`, and joins neighbouring segments into one block while the
    /// estimated bits of the joined block (``estimatedBits(_:)``) are no more than those of
    /// the two apart: a tile whose statistics change (an empty margin, a dense centre) gets a
    /// block, and Huffman codes, for each part.
    ///
    /// With `weighingShortMatches`, each segment after the first weighs its short matches
    /// against literals (``RunTokenizer/tokenize(_:from:until:equalAt1:equalAt4:tokens:histogram:shortMatchCosts:)``)
    /// at the bits the segment before spent on them (``shortMatchCosts(_:into:)``).
    ///
    /// - Precondition: `tokens` holds `count` tokens, `histograms` the counters of
    ///   `(count + segmentBytes - 1) / segmentBytes` segments (at least one); `segmentBytes > 0`.
    /// - Complexity: O(n), plus O(768) a segment.
    static func splitBlocks(
        _ bytes: UnsafePointer<UInt8>, count n: Int, equalAt1: UnsafePointer<UInt64>, equalAt4: UnsafePointer<UInt64>,
        tokens: UnsafeMutablePointer<UInt16>, histograms: UnsafeMutablePointer<UInt32>, segmentBytes: Int,
        weighingShortMatches: Bool = false
    ) -> [Block] {
        let width = RunTokenizer.tokenCount
        let segments = max(1, (n + segmentBytes - 1) / segmentBytes)
        histograms.initialize(repeating: 0, count: segments * width)
        let joined = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        let costs = UnsafeMutablePointer<Float>.allocate(capacity: RunTokenizer.shortMatchCostCount)
        defer {
            joined.deallocate()
            costs.deallocate()
        }
        var weighing = false
        var blocks: [Block] = []
        var position = 0
        var tokenCount = 0
        var blockStart = 0
        var blockCounts = histograms
        var blockBits = 0.0
        for segment in 0..<segments {
            let counts = histograms + segment * width
            let segmentStart = tokenCount
            let parsed = RunTokenizer.tokenize(
                bytes, from: position, until: min(n, (segment + 1) * segmentBytes), equalAt1: equalAt1,
                equalAt4: equalAt4, tokens: tokens + tokenCount, histogram: counts,
                shortMatchCosts: weighing ? UnsafePointer(costs) : nil)
            position = parsed.end
            tokenCount += parsed.tokens
            if weighingShortMatches { weighing = shortMatchCosts(counts, into: costs) }
            let bits = estimatedBits(counts)
            if segment == 0 {
                blockBits = bits
                continue
            }
            for k in 0..<width { joined[k] = blockCounts[k] &+ counts[k] }
            let joinedBits = estimatedBits(joined)
            if joinedBits <= blockBits + bits {
                blockCounts.update(from: joined, count: width)
                blockBits = joinedBits
            } else {
                blocks.append(
                    Block(tokens: tokens + blockStart, count: segmentStart - blockStart, histogram: blockCounts))
                (blockStart, blockCounts, blockBits) = (segmentStart, counts, bits)
            }
        }
        blocks.append(Block(tokens: tokens + blockStart, count: tokenCount - blockStart, histogram: blockCounts))
        return blocks
    }

    /// Writes the bits a literal of each byte and a match of 3 to 10 bytes would take in codes
    /// built for the tokens counted in `counts`
    /// (``RunTokenizer/shortMatchCostCount`` costs, as ``RunTokenizer`` weighs them): log₂ of
    /// the tokens over the token's count, at least 1; a match adds the 1 bit of its distance
    /// (a block uses two distance codes); a byte or length not seen, a bit more than the
    /// rarest could take. Returns false, writing nothing, for under 1,024 tokens: too few to
    /// weigh by.
    static func shortMatchCosts(_ counts: UnsafePointer<UInt32>, into costs: UnsafeMutablePointer<Float>) -> Bool {
        var total: UInt32 = 0
        for k in 0..<RunTokenizer.tokenCount { total &+= counts[k] }
        guard total >= 1024 else { return false }
        let logTotal = fastLog2(Float(total))
        func bits(_ count: UInt32) -> Float { count == 0 ? logTotal + 1 : max(1, logTotal - fastLog2(Float(count))) }
        for byte in 0..<256 { costs[byte] = bits(counts[byte]) }
        for length in 3...RunTokenizer.shortMatchLongest {
            // Near and far matches of one length share its length symbol.
            costs[253 + length] = bits(counts[253 + length] &+ counts[509 + length]) + 1
        }
        return true
    }

    /// About the bits of a dynamic block of the tokens counted in `counts`: their entropy,
    /// plus 4 bits a token used and 120 for the trees (a block's trees took 60 to 150 bytes on
    /// heatmap tiles), the extra length bits left out (the same however the tokens are split).
    static func estimatedBits(_ counts: UnsafePointer<UInt32>) -> Double {
        var total: UInt32 = 0
        var sum: Float = 0
        var used = 0
        for k in 0..<RunTokenizer.tokenCount where counts[k] != 0 {
            let count = Float(counts[k])
            total &+= counts[k]
            sum += count * fastLog2(count)
            used += 1
        }
        guard total > 0 else { return 0 }
        let all = Float(total)
        return Double(all * fastLog2(all) - sum) + Double(used * 4 + 120)
    }

    /// log₂ of a positive `x` within about 0.005: the exponent's bits and a quadratic over the
    /// mantissa.
    @inline(__always)
    static func fastLog2(_ x: Float) -> Float {
        let bits = x.bitPattern
        let exponent = Float(Int32(bitPattern: bits >> 23) - 127)
        let mantissa = Float(bitPattern: (bits & 0x7F_FFFF) | 0x3F80_0000)  // In [1, 2).
        return exponent + (-0.344_848_43 * mantissa + 2.024_665_78) * mantissa - 0.674_877_59
    }
}
