import CZlib

/// A fast deflate (RFC 1951) compressor for filtered heatmap scanlines, in a zlib (RFC 1950)
/// wrapper: one dynamic-Huffman block whose only back-references repeat the previous byte
/// (distance 1) or the previous pixel (distance 4).
///
/// After PNG's `up` filter a heatmap tile is mostly runs of zeros (transparent or vertically
/// constant areas) and short repeating pixel deltas; run-length matches plus Huffman codes
/// built for the tile's own symbols capture nearly all of it, in two linear passes and
/// without zlib's hash chains.
enum RunLengthDeflate {
    /// The zlib stream of `input`.
    ///
    /// - Complexity: O(n), two passes over the input.
    static func compress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // Pass 1 over the bytes: tokens and their frequencies.
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        let tokens = tokenize(input, literalCounts: &literalCounts, distanceCounts: &distanceCounts)
        literalCounts[256] = 1
        let literalLengths = HuffmanCode.lengths(for: literalCounts, limit: 15)
        var distanceLengths = HuffmanCode.lengths(for: distanceCounts, limit: 15)
        // A distance tree with one code must still be complete: give distances 1 and 4 a bit each.
        if distanceLengths.filter({ $0 > 0 }).count < 2 {
            distanceLengths[0] = 1
            distanceLengths[3] = 1
        }
        let literalCodes = HuffmanCode.canonicalCodes(for: literalLengths)
        let distanceCodes = HuffmanCode.canonicalCodes(for: distanceLengths)

        // Header, trees, tokens, end of block, Adler-32: at most ~2 bytes a token plus the trees.
        var writer = BitWriter(capacity: tokens.count * 2 + 1024)
        writer.write(0x78, bits: 8)  // zlib header: deflate, 32 KiB window,
        writer.write(0x01, bits: 8)  // fastest level, check bits.
        writer.write(1, bits: 1)  // Final block,
        writer.write(2, bits: 2)  // dynamic Huffman codes.
        writeTrees(literalLengths: literalLengths, distanceLengths: distanceLengths, into: &writer)
        // Pass 2 over the tokens: each as one code, with its extra bits.
        var table = [UInt32](repeating: 0, count: 286)  // code | length << 16
        for i in 0..<286 { table[i] = UInt32(literalCodes[i]) | UInt32(literalLengths[i]) << 16 }
        let distance1 = UInt32(distanceCodes[0]) | UInt32(distanceLengths[0]) << 16
        let distance4 = UInt32(distanceCodes[3]) | UInt32(distanceLengths[3]) << 16
        // Per token: code and length of its symbol, then for matches the extra length bits and
        // the distance code, all looked up in tables copied out of the statics once.
        // Symbol code | code length << 16 | extra value << 24 | extra bits << 40, by match length.
        var matchEntry = [UInt64](repeating: 0, count: 259)
        for length in 3...258 {
            let symbol = Int(Self.lengthSymbol[length])
            let extraBits = UInt64(Self.lengthExtraBits[symbol - 257])
            let extra = UInt64(length - Int(Self.lengthBase[symbol - 257]))
            matchEntry[length] = UInt64(table[symbol]) | extra << 24 | extraBits << 40
        }
        table.withUnsafeBufferPointer { t in
            matchEntry.withUnsafeBufferPointer { m in
                for token in tokens {
                    if token < 256 {
                        let e = t[Int(token)]
                        writer.write(UInt64(e & 0xFFFF), bits: Int(e >> 16))
                    } else {
                        let e = m[Int(token & 0x1FF)]
                        writer.write(e & 0xFFFF, bits: Int((e >> 16) & 0xFF))
                        writer.write((e >> 24) & 0xFFFF, bits: Int(e >> 40))
                        let d = token & 0x400 != 0 ? distance4 : distance1
                        writer.write(UInt64(d & 0xFFFF), bits: Int(d >> 16))
                    }
                }
            }
        }
        writer.write(UInt64(literalCodes[256]), bits: Int(literalLengths[256]))
        writer.alignToByte()
        let checksum = Adler32.checksum(input)
        writer.write(UInt64(checksum.byteSwapped), bits: 32)
        return writer.finish()
    }

    /// The tokens of `input`, counted into the frequencies: a byte (< 256) is a literal; a run
    /// of 3...258 bytes equal to the bytes 1 or 4 before them is a match, `0x200 | length`, with
    /// `0x400` set for distance 4.
    static func tokenize(_ input: UnsafeBufferPointer<UInt8>, literalCounts: inout [Int], distanceCounts: inout [Int])
        -> [UInt16]
    {
        guard let p = input.baseAddress, input.count > 0 else { return [] }
        let n = input.count
        var tokens = [UInt16]()
        tokens.reserveCapacity(n)
        let symbols = Self.lengthSymbol
        literalCounts.withUnsafeMutableBufferPointer { lit in
            symbols.withUnsafeBufferPointer { lengthSymbol in
                var i = 0
                while i < n {
                    var best = 0
                    var distance = 1
                    let limit = min(258, n - i)
                    if i >= 1 && p[i] == p[i - 1] {
                        best = runLength(p + i, p + i - 1, distance: 1, limit: limit)
                    }
                    if best < limit && i >= 4 && p[i] == p[i - 4] {
                        let r = runLength(p + i, p + i - 4, distance: 4, limit: limit)
                        if r > best {
                            best = r
                            distance = 4
                        }
                    }
                    if best >= 3 {
                        tokens.append(UInt16(0x200 | best | (distance == 4 ? 0x400 : 0)))
                        lit[Int(lengthSymbol[best])] += 1
                        distanceCounts[distance == 4 ? 3 : 0] += 1
                        i += best
                    } else {
                        tokens.append(UInt16(p[i]))
                        lit[Int(p[i])] += 1
                        i += 1
                    }
                }
            }
        }
        return tokens
    }

    /// How many bytes from `current` on equal those `distance` before them, up to `limit`;
    /// 8 bytes at a time where the source does not overlap the run.
    @inline(__always)
    static func runLength(
        _ current: UnsafePointer<UInt8>, _ source: UnsafePointer<UInt8>, distance: Int, limit: Int
    ) -> Int {
        var r = 0
        if distance == 1 {
            let byte = current[-1]
            let word = UInt64(byte) &* 0x0101_0101_0101_0101
            while r + 8 <= limit && UnsafeRawPointer(current + r).loadUnaligned(as: UInt64.self) == word { r += 8 }
            while r < limit && current[r] == byte { r += 1 }
        } else {
            while r + 8 <= limit
                && UnsafeRawPointer(current + r).loadUnaligned(as: UInt64.self)
                    == UnsafeRawPointer(source + r).loadUnaligned(as: UInt64.self)
            { r += 8 }
            while r < limit && current[r] == source[r] { r += 1 }
        }
        return r
    }

    /// Writes the code lengths of both trees, run-length coded with the code-length alphabet.
    static func writeTrees(literalLengths: [UInt8], distanceLengths: [UInt8], into writer: inout BitWriter) {
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
            writer.write(UInt64(codes[Int(symbol)]), bits: Int(lengths[Int(symbol)]))
            if bits > 0 { writer.write(UInt64(extra), bits: Int(bits)) }
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
