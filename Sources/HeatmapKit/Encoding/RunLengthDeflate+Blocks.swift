extension RunLengthDeflate {
    /// Tokens written as one deflate block, and their counts (``RunTokenizer/tokenCount`` of them).
    struct Block {
        var tokens: UnsafePointer<UInt16>
        var count: Int
        var histogram: UnsafePointer<UInt32>
    }

    /// How a block is written: its codes, whether they are deflate's fixed ones, and its bits
    /// (block header, trees, tokens, end of block).
    struct BlockPlan {
        var code: TokenCode
        var fixed: Bool
        var bits: UInt64
    }

    /// The codes of `block`: Huffman codes built for its counts, or the fixed ones when their
    /// bits are no more than those plus the trees; `scratch` holds 1,024 bytes for the trees.
    static func plan(_ block: Block, farDistance: Int, scratch: UnsafeMutableRawPointer) -> BlockPlan {
        let code = TokenCode(
            histogram: UnsafeBufferPointer(start: block.histogram, count: RunTokenizer.tokenCount),
            farDistance: farDistance)
        var body = code.endOfBlock >> 56
        for token in 0..<RunTokenizer.tokenCount {
            body += UInt64(block.histogram[token]) * (code.packed[token] >> 56)
        }
        var trees = DeflateBitStream(at: scratch)
        writeTrees(code: code, into: &trees)
        let treeBits = UInt64(scratch.distance(to: trees.next) * 8) + trees.pendingBits
        let fixedBits = fixedBodyBits(block.histogram, farDistance: farDistance)
        if fixedBits <= body + treeBits {
            // So few tokens that the fixed codes cost less than sending trees (a small tile).
            return BlockPlan(code: TokenCode(fixedFarDistance: farDistance), fixed: true, bits: 3 + fixedBits)
        }
        return BlockPlan(code: code, fixed: false, bits: 3 + treeBits + body)
    }

    /// The zlib stream of `blocks` in order (the tokens of one parse, whose bytes have the
    /// Adler-32 `checksum`), between `prefix` and `suffix` bytes as in
    /// ``compress(_:prefix:suffix:farDistance:)``; far matches repeat the bytes `farDistance` before.
    ///
    /// - Precondition: `suffix >= 8`, at least one block.
    /// - Complexity: O(tokens).
    static func stream(
        blocks: [Block], checksum: UInt32, prefix: Int, suffix: Int, farDistance: Int
    ) -> [UInt8] {
        precondition(suffix >= 8, "the bit stream stores up to 7 bytes past its end")
        precondition(!blocks.isEmpty, "a deflate stream holds a block at least")
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 8)
        defer { scratch.deallocate() }
        let plans = blocks.map { plan($0, farDistance: farDistance, scratch: scratch) }
        let bits = plans.reduce(16) { $0 + $1.bits }  // After the zlib header,
        let streamCount = Int((bits + 7) / 8) + 4  // then the Adler-32.
        return [UInt8](unsafeUninitializedCapacity: prefix + streamCount + suffix) { buffer, count in
            guard let start = buffer.baseAddress.map({ UnsafeMutableRawPointer($0 + prefix) }) else { return }
            var stream = DeflateBitStream(at: start)
            stream.write(0x78, bits: 8)  // zlib header: deflate, 32 KiB window,
            stream.write(0x01, bits: 8)  // fastest level, check bits.
            for (k, (block, plan)) in zip(blocks, plans).enumerated() {
                stream.write(k == blocks.count - 1 ? 1 : 0, bits: 1)  // The final block or not,
                stream.write(plan.fixed ? 1 : 2, bits: 2)  // its codes: 1 fixed, 2 dynamic.
                if !plan.fixed { writeTrees(code: plan.code, into: &stream) }
                writeTokens(block.tokens, count: block.count, code: plan.code, into: &stream)
                stream.write(packed: plan.code.endOfBlock)
            }
            stream.alignToByte()
            stream.write(UInt64(checksum.byteSwapped), bits: 32)
            precondition(stream.next == start + streamCount, "the stream's size was computed wrongly")
            count = prefix + streamCount + suffix
        }
    }

    /// Writes each of the `count` tokens as its packed code, two a write when they fit.
    @inline(__always)
    static func writeTokens(
        _ tokens: UnsafePointer<UInt16>, count tokenCount: Int, code: TokenCode, into stream: inout DeflateBitStream
    ) {
        code.packed.withUnsafeBufferPointer { packed in
            var k = 0
            if code.longest > 28 {
                // Far matches with extra distance bits: one token a write.
                while k < tokenCount {
                    stream.write(packed: packed[Int(tokens[k])])
                    k &+= 1
                }
            }
            while k &+ 4 <= tokenCount {
                stream.write(packed: packed[Int(tokens[k])], packed[Int(tokens[k &+ 1])])
                stream.write(packed: packed[Int(tokens[k &+ 2])], packed[Int(tokens[k &+ 3])])
                k &+= 4
            }
            if k &+ 2 <= tokenCount {
                stream.write(packed: packed[Int(tokens[k])], packed[Int(tokens[k &+ 1])])
                k &+= 2
            }
            if k < tokenCount { stream.write(packed: packed[Int(tokens[k])]) }
        }
    }
}
