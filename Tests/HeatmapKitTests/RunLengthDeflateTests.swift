import CZlib
import HeatmapCore
import Testing

@testable import HeatmapKit

/// The greedy parse ``RunTokenizer`` must produce, written out plainly: at each byte the longer
/// of the runs at distances 1 and `distance` (default 4; distance 1 on a tie), if it reaches 3 bytes.
private func referenceTokens(_ p: [UInt8], distance: Int = 4) -> [UInt16] {
    var tokens: [UInt16] = []
    var i = 0
    while i < p.count {
        let limit = min(258, p.count - i)
        var near = 0
        while i >= 1 && near < limit && p[i + near] == p[i + near - 1] { near += 1 }
        var far = 0
        while i >= distance && far < limit && p[i + far] == p[i + far - distance] { far += 1 }
        let length = max(near, far)
        if length >= 3 {
            tokens.append(UInt16(253 + length + (far > near ? 256 : 0)))
            i += length
        } else {
            tokens.append(UInt16(p[i]))
            i += 1
        }
    }
    return tokens
}

/// The tokens and token counts of `bytes` from ``RunTokenizer``, far matches at `distance`.
private func tokenize(_ bytes: [UInt8], distance: Int = 4) -> (tokens: [UInt16], histogram: [UInt32]) {
    let words = RunTokenizer.maskWordCount(byteCount: bytes.count)
    var near = [UInt64](repeating: 0xDEAD, count: words)
    var far = [UInt64](repeating: 0xBEEF, count: words)
    var tokens = [UInt16](repeating: 0, count: bytes.count)
    var histogram = [UInt32](repeating: 0, count: RunTokenizer.tokenCount)
    var count = 0
    bytes.withUnsafeBufferPointer { input in
        guard let p = input.baseAddress else { return }
        RunTokenizer.equalityMasks(p, count: input.count, near: &near, far: &far, distance: distance)
        count = RunTokenizer.tokenize(
            p, count: input.count, equalAt1: near, equalAt4: far, tokens: &tokens, histogram: &histogram)
    }
    return (Array(tokens.prefix(count)), histogram)
}

/// `stream` inflated by zlib, or `nil` if zlib rejects it.
private func inflate(_ stream: [UInt8], expectedCount: Int) -> [UInt8]? {
    var output = [UInt8](repeating: 0, count: expectedCount + 16)
    var outputCount = uLong(output.count)
    let status = output.withUnsafeMutableBufferPointer { out in
        stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &outputCount, $0.baseAddress, uLong($0.count)) }
    }
    return status == Z_OK ? Array(output.prefix(Int(outputCount))) : nil
}

/// Inputs that stress the parse: word boundaries of the masks, runs around 3, 63–65 and 258
/// bytes, distinct bytes, tiny buffers and noise.
private let samples: [(String, [UInt8])] = {
    var generator = SplitMix64(seed: 17)
    var samples: [(String, [UInt8])] = [
        ("empty", []), ("one byte", [7]), ("two equal", [0, 0]), ("three equal", [0, 0, 0]),
        ("five", [1, 1, 1, 1, 1]), ("pixel repeats", [1, 2, 3, 4, 1, 2, 3, 4, 1, 2]),
        ("long zero run", [UInt8](repeating: 0, count: 100_000)),
        ("all distinct", (0..<256).map { UInt8($0) } + (0..<256).map { UInt8(255 - $0) }),
        ("noise", (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }),
        ("few symbols", (0..<50_000).map { _ in UInt8.random(in: 0...2, using: &generator) }),
    ]
    // Runs of every length near the mask window and the match limit, at every offset in a word.
    var runs: [UInt8] = []
    for length in [1, 2, 3, 4, 62, 63, 64, 65, 66, 127, 128, 129, 257, 258, 259, 260, 516, 517] {
        for offset in 0..<3 {
            runs += (0..<(offset * 7 + 1)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            runs += [UInt8](repeating: UInt8(length % 256), count: length)
            let pixel = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
            runs += (0..<length).map { pixel[$0 % 4] }
        }
    }
    samples.append(("runs", runs))
    return samples
}()

@Suite("Run-length deflate")
struct RunLengthDeflateTests {
    @Test("The equality masks mark exactly the bytes equal to the one 1 or 4 before, and nothing past the end")
    func equalityMasks() {
        for (name, bytes) in samples where bytes.count < 200_000 {
            let words = RunTokenizer.maskWordCount(byteCount: bytes.count)
            var near = [UInt64](repeating: .max, count: words)
            var far = [UInt64](repeating: .max, count: words)
            if let p = bytes.withUnsafeBufferPointer({ $0.baseAddress }) {
                RunTokenizer.equalityMasks(p, count: bytes.count, near: &near, far: &far)
            } else {
                continue
            }
            for j in 0..<(words * 64) {
                let nearBit = near[j >> 6] >> UInt64(j & 63) & 1 == 1
                let farBit = far[j >> 6] >> UInt64(j & 63) & 1 == 1
                #expect(nearBit == (j >= 1 && j < bytes.count && bytes[j] == bytes[j - 1]), "\(name) byte \(j)")
                #expect(farBit == (j >= 4 && j < bytes.count && bytes[j] == bytes[j - 4]), "\(name) byte \(j)")
            }
        }
    }

    @Test("The tokens are the plain greedy parse's, and the histogram counts them")
    func tokensMatchReference() {
        for (name, bytes) in samples {
            let (tokens, histogram) = tokenize(bytes)
            #expect(tokens == referenceTokens(bytes), "\(name)")
            var expected = [UInt32](repeating: 0, count: RunTokenizer.tokenCount)
            for token in tokens { expected[Int(token)] += 1 }
            #expect(histogram == expected, "\(name)")
        }
        #expect(tokenize([UInt8](repeating: 0, count: 1000)).tokens == [0, 511, 511, 511, 253 + 225])
    }

    @Test("zlib inflates every stream to its input")
    func zlibInflates() {
        for (name, bytes) in samples {
            let stream = bytes.withUnsafeBufferPointer { RunLengthDeflate.compress($0) }
            #expect(inflate(stream, expectedCount: bytes.count) == bytes, "\(name)")
            if name == "long zero run" { #expect(stream.count < 1_000) }
        }
    }

    @Test("Far matches at distances 2 and 3 (palette indices): the plain parse's tokens, and zlib inflates them")
    func farDistances() {
        for distance in [2, 3] {
            for (name, bytes) in samples {
                #expect(
                    tokenize(bytes, distance: distance).tokens == referenceTokens(bytes, distance: distance), "\(name)")
                let stream = bytes.withUnsafeBufferPointer {
                    RunLengthDeflate.compress($0, prefix: 0, suffix: 8, farDistance: distance)
                }
                #expect(inflate(Array(stream.dropLast(8)), expectedCount: bytes.count) == bytes, "\(name), \(distance)")
            }
        }
        let pairs = (0..<1000).map { UInt8($0 % 2) * 9 }
        let tokens = tokenize(pairs, distance: 2).tokens
        #expect(tokens.count < 10 && tokens.contains { $0 >= 512 })
    }

    @Test("Far matches a packed row above (33 to 32,768 bytes): the plain parse's tokens, and zlib inflates them")
    func rowDistances() {
        var generator = SplitMix64(seed: 23)
        for distance in [33, 64, 65, 100, 513, 32768] {
            // Rows of `distance` bytes that mostly repeat the one above, a few bytes changed.
            var rows = (0..<distance).map { _ in UInt8.random(in: 0...3, using: &generator) }
            while rows.count < 70_000 {
                var row = Array(rows.suffix(distance))
                for _ in 0..<3 { row[Int.random(in: 0..<distance, using: &generator)] ^= 1 }
                rows += row
            }
            for (name, bytes) in samples.filter({ $0.0 != "noise" }) + [("rows", rows)] {
                #expect(
                    tokenize(bytes, distance: distance).tokens == referenceTokens(bytes, distance: distance),
                    "\(name), \(distance)")
                let stream = bytes.withUnsafeBufferPointer {
                    RunLengthDeflate.compress($0, prefix: 0, suffix: 8, farDistance: distance)
                }
                #expect(inflate(Array(stream.dropLast(8)), expectedCount: bytes.count) == bytes, "\(name), \(distance)")
            }
            #expect(tokenize(rows, distance: distance).tokens.contains { $0 >= 512 }, "\(distance)")
        }
    }

    @Test("A few tokens go in a fixed-code block, many in a dynamic one; zlib inflates both")
    func blockTypes() {
        for (name, bytes) in samples {
            for distance in [4, 65] {
                let stream = bytes.withUnsafeBufferPointer {
                    Array(RunLengthDeflate.compress($0, prefix: 0, suffix: 8, farDistance: distance).dropLast(8))
                }
                #expect(inflate(stream, expectedCount: bytes.count) == bytes, "\(name), \(distance)")
                // BFINAL, then BTYPE: 1 fixed, 2 dynamic.
                let type = stream[2] >> 1 & 3
                if bytes.count < 8 || name == "all distinct" { #expect(type == 1, "\(name)") }
                if name == "noise" || name == "few symbols" { #expect(type == 2, "\(name)") }
            }
        }
    }

    @Test("Segments join into blocks where the statistics change; the blocks hold the whole parse; zlib inflates them")
    func splitBlocks() {
        var generator = SplitMix64(seed: 29)
        let halves =
            (0..<60_000).map { _ in UInt8.random(in: 0...1, using: &generator) }
            + (0..<60_000).map { _ in UInt8.random(in: 100...163, using: &generator) }
        for (name, bytes) in samples + [("halves", halves)] {
            for segmentBytes in [64, 1000, 32768] {
                let stream = bytes.withUnsafeBufferPointer {
                    RunLengthDeflate.compress($0, prefix: 0, suffix: 8, farDistance: 2, segmentBytes: segmentBytes)
                }
                #expect(
                    inflate(Array(stream.dropLast(8)), expectedCount: bytes.count) == bytes, "\(name), \(segmentBytes)")
            }
        }
        // The blocks of the halves: their tokens are the whole parse's, in order, and there are two or more.
        let words = RunTokenizer.maskWordCount(byteCount: halves.count)
        var near = [UInt64](repeating: 0, count: words)
        var far = [UInt64](repeating: 0, count: words)
        var tokens = [UInt16](repeating: 0, count: halves.count)
        var histograms = [UInt32](repeating: 0, count: 4 * RunTokenizer.tokenCount)
        var joined: [UInt16] = []
        var blockCount = 0
        halves.withUnsafeBufferPointer { input in
            guard let p = input.baseAddress else { return }
            RunTokenizer.equalityMasks(p, count: input.count, near: &near, far: &far, distance: 2)
            tokens.withUnsafeMutableBufferPointer { tokens in
                histograms.withUnsafeMutableBufferPointer { histograms in
                    guard let t = tokens.baseAddress, let h = histograms.baseAddress else { return }
                    let blocks = RunLengthDeflate.splitBlocks(
                        p, count: input.count, equalAt1: near, equalAt4: far, tokens: t, histograms: h,
                        segmentBytes: 32768)
                    blockCount = blocks.count
                    for block in blocks { joined += UnsafeBufferPointer(start: block.tokens, count: block.count) }
                }
            }
        }
        #expect(joined == referenceTokens(halves, distance: 2))
        #expect(blockCount >= 2)
        let whole = halves.withUnsafeBufferPointer {
            RunLengthDeflate.compress($0, prefix: 0, suffix: 8, farDistance: 2)
        }
        let split = halves.withUnsafeBufferPointer {
            RunLengthDeflate.compress($0, prefix: 0, suffix: 8, farDistance: 2, segmentBytes: 32768)
        }
        #expect(split.count < whole.count)
    }

    @Test("Short matches weighed against literals: zlib inflates every stream; dear short runs become literals")
    func weighedShortMatches() {
        // Residuals of a smooth field: mostly 0, often ±1, so runs of 3 to 5 zeros are common and
        // a zero costs about a bit as a literal.
        var generator = SplitMix64(seed: 41)
        let residuals = (0..<200_000).map { _ -> UInt8 in
            switch UInt8.random(in: 0...19, using: &generator) {
            case 0...10: 0
            case 11...14: 1
            case 15...18: 255
            default: 2
            }
        }
        for (name, bytes) in samples + [("residuals", residuals)] {
            let stream = bytes.withUnsafeBufferPointer {
                RunLengthDeflate.compress(
                    $0, prefix: 0, suffix: 8, farDistance: 2, segmentBytes: 32768, weighingShortMatches: true)
            }
            #expect(inflate(Array(stream.dropLast(8)), expectedCount: bytes.count) == bytes, "\(name)")
        }
        let (greedy, weighed) = residuals.withUnsafeBufferPointer { input in
            (
                RunLengthDeflate.compress(input, prefix: 0, suffix: 8, farDistance: 2, segmentBytes: 32768),
                RunLengthDeflate.compress(
                    input, prefix: 0, suffix: 8, farDistance: 2, segmentBytes: 32768, weighingShortMatches: true)
            )
        }
        #expect(weighed.count < greedy.count)
        // The costs: at least a bit a literal, a bit more for a match's distance, nothing from too few tokens.
        var counts = [UInt32](repeating: 0, count: RunTokenizer.tokenCount)
        var costs = [Float](repeating: -1, count: RunTokenizer.shortMatchCostCount)
        #expect(!RunLengthDeflate.shortMatchCosts(counts, into: &costs))
        counts[0] = 3000
        counts[1] = 1000
        counts[256] = 1000  // Matches of 3 bytes at distance 1.
        #expect(RunLengthDeflate.shortMatchCosts(counts, into: &costs))
        #expect(costs[0] == 1)
        #expect(abs(costs[1] - 2.32) < 0.02)
        #expect(abs(costs[256] - 3.32) < 0.02)
        #expect(costs[2] > costs[1] && costs[257] > costs[256])
    }

    @Test("The stream sits between the reserved prefix and suffix, in an array of exactly that size")
    func prefixAndSuffix() {
        let bytes = samples.first { $0.0 == "runs" }?.1 ?? []
        let plain = bytes.withUnsafeBufferPointer { RunLengthDeflate.compress($0) }
        let framed = bytes.withUnsafeBufferPointer { RunLengthDeflate.compress($0, prefix: 41, suffix: 16) }
        #expect(framed.count == 41 + plain.count + 16)
        #expect(Array(framed[41..<(41 + plain.count)]) == plain)
    }

    @Test("A 512×512 tile of noise round-trips through libpng with the default encoder")
    func noiseTile() throws {
        var generator = SplitMix64(seed: 5)
        var image = RGBAImage(transparentWidth: 512, height: 512)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8.random(in: 0...255, using: &generator) }
        let bytes = try PNGEncoder().encode(image)
        #expect(try PNGDecoder.decode(bytes) == image)
        #expect(bytes.count < 512 * 512 * 4 + 2_000)
    }

    @Test("The bit stream packs single writes, paired writes and appended bits least-significant first")
    func bitStream() {
        var generator = SplitMix64(seed: 8)
        var expectedBits: [Bool] = []
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        var stream = DeflateBitStream(at: buffer)
        func random(bits: UInt64) -> UInt64 {
            let value = UInt64.random(in: 0...UInt64.max, using: &generator) & ((1 << bits) - 1)
            expectedBits += (0..<bits).map { value >> $0 & 1 == 1 }
            return value
        }
        for _ in 0..<300 {
            if Bool.random(using: &generator) {
                let bits = UInt64.random(in: 0...56, using: &generator)
                stream.write(random(bits: bits), bits: bits)
            } else {
                let (first, second) = (
                    UInt64.random(in: 0...28, using: &generator), UInt64.random(in: 0...28, using: &generator)
                )
                let a = random(bits: first) | first << 56
                let b = random(bits: second) | second << 56
                stream.write(packed: a, b)
            }
        }
        #expect(buffer.distance(to: stream.next) * 8 + Int(stream.pendingBits) == expectedBits.count)
        stream.alignToByte()
        let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: buffer.distance(to: stream.next)))
        let written: [Bool] = bytes.flatMap { (byte: UInt8) -> [Bool] in (0..<8).map { byte >> UInt8($0) & 1 == 1 } }
        #expect(Array(written.prefix(expectedBits.count)) == expectedBits)
        #expect(written.dropFirst(expectedBits.count).allSatisfy { !$0 })
    }
}
