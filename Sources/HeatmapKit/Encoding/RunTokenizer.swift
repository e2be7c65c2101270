/// Splits filtered scanlines into deflate tokens for ``RunLengthDeflate``: literal bytes and
/// greedy matches that repeat the previous byte (distance 1) or the bytes a fixed distance
/// before (the "far" distance: the previous RGBA pixel at 4, the default; the index two
/// before, 2; or the row above in a packed palette image).
///
/// A token is a `UInt16`: a literal byte is itself (0...255); a match of length 3...258 is
/// `256 + length - 3`, plus 256 at the far distance (so 256...511 at distance 1, 512...767 at
/// the far distance). At each position the longer match wins, distance 1 on a tie, and a byte starts
/// a literal when neither match reaches 3 bytes.
///
/// The work is split so that the serial part waits on no memory: a vectorised pass first
/// marks, one bit a byte, where each byte equals the one 1 or 4 before it; the parse then finds
/// match starts and lengths with shifts and trailing-zero counts on those 64-bit words (runs
/// longer than the 64-bit window a word at a time), and reads bytes only to copy literals.
enum RunTokenizer {
    /// The number of distinct tokens: 256 literals and 2 × 256 match lengths.
    static let tokenCount = 768

    /// The number of bit costs ``tokenize(_:from:until:equalAt1:equalAt4:tokens:histogram:shortMatchCosts:)``
    /// weighs short matches with: 256 literals, then matches of 3 to ``shortMatchLongest`` bytes.
    static let shortMatchCostCount = 256 + shortMatchLongest - 2

    /// The longest match weighed against literals: 10, the longest whose length code has no extra bits.
    static let shortMatchLongest = 10

    /// The number of 64-bit words ``equalityMasks(_:count:near:far:)`` writes for `count`
    /// bytes: one a 64 bytes and one zero word after them, which the parse reads past the end.
    static func maskWordCount(byteCount: Int) -> Int { (byteCount + 63) / 64 + 1 }

    /// Writes bit `j % 64` of word `j / 64` of `near` for each byte `j` of `bytes` that equals
    /// the byte before it, and of `far` for each that equals the byte `distance` (default 4)
    /// before it. Bits of bytes that have no such byte before them, or past the end, are 0.
    ///
    /// - Precondition: `near` and `far` hold ``maskWordCount(byteCount:)`` words each;
    ///   `distance` is in ``farDistances`` (a pixel before, or a packed row above).
    /// - Complexity: O(n), 16 bytes per comparison.
    static func equalityMasks(
        _ bytes: UnsafePointer<UInt8>, count n: Int, near: UnsafeMutablePointer<UInt64>,
        far: UnsafeMutablePointer<UInt64>, distance: Int = 4
    ) {
        precondition(farDistances.contains(distance), "the far distance is 2...32768")
        let words = maskWordCount(byteCount: n)
        near.initialize(repeating: 0, count: words)
        far.initialize(repeating: 0, count: words)
        let raw = UnsafeRawPointer(bytes)
        // Whole words from the first whose every comparison stays inside the buffer.
        let firstWord = max(1, (distance + 63) / 64)
        var q = firstWord
        while (q + 1) * 64 <= n {
            var nearWord: UInt64 = 0
            var farWord: UInt64 = 0
            for part in 0..<4 {
                let offset = q * 64 + part * 16
                let current = raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                let previous = raw.loadUnaligned(fromByteOffset: offset - 1, as: SIMD16<UInt8>.self)
                let pixelBefore = raw.loadUnaligned(fromByteOffset: offset - distance, as: SIMD16<UInt8>.self)
                let zero = SIMD16<UInt8>(repeating: 0)
                let equal1 = unsafeBitCast(
                    zero.replacing(with: 0xFF, where: current .== previous), to: SIMD2<UInt64>.self)
                let equal4 = unsafeBitCast(
                    zero.replacing(with: 0xFF, where: current .== pixelBefore), to: SIMD2<UInt64>.self)
                let shift = UInt64(part * 16)
                nearWord |= (gatherHighBits(equal1[0]) | gatherHighBits(equal1[1]) << 8) << shift
                farWord |= (gatherHighBits(equal4[0]) | gatherHighBits(equal4[1]) << 8) << shift
            }
            near[q] = nearWord
            far[q] = farWord
            q += 1
        }
        // The words before those and the tail, byte by byte.
        let head = min(n, firstWord * 64)
        var j = 1
        while j < n {
            let bit: UInt64 = 1 << UInt64(j & 63)
            if bytes[j] == bytes[j - 1] { near[j >> 6] |= bit }
            if j >= distance && bytes[j] == bytes[j - distance] { far[j >> 6] |= bit }
            j = j == head - 1 ? max(head, q * 64) : j + 1  // Past the words done above.
        }
    }

    /// The distances a far match may have: deflate's, from 2 (1 is the near match's).
    static let farDistances = 2...32768

    /// The 8-bit mask of the bytes of `bytes`, each 0x00 or 0xFF: bit `k` for byte `k`.
    @inline(__always)
    static func gatherHighBits(_ bytes: UInt64) -> UInt64 {
        // Each byte keeps one distinct bit; multiplying by 0x0101… sums (ors) them into the top byte.
        ((bytes & 0x8040_2010_0804_0201) &* 0x0101_0101_0101_0101) >> 56
    }

    /// Tokenizes `bytes` into `tokens` and counts each token into `histogram`; returns the
    /// number of tokens.
    ///
    /// - Precondition: `equalAt1` and `equalAt4` are the `near` and `far` ``equalityMasks(_:count:near:far:)``
    ///   of `bytes`; `tokens` has room for `n` tokens; `histogram` holds
    ///   ``tokenCount`` counters.
    /// - Complexity: O(n); the serial steps are one per literal and one per match.
    static func tokenize(
        _ bytes: UnsafePointer<UInt8>, count n: Int, equalAt1: UnsafePointer<UInt64>, equalAt4: UnsafePointer<UInt64>,
        tokens: UnsafeMutablePointer<UInt16>, histogram: UnsafeMutablePointer<UInt32>
    ) -> Int {
        tokenize(
            bytes, from: 0, until: n, equalAt1: equalAt1, equalAt4: equalAt4, tokens: tokens, histogram: histogram
        ).tokens
    }

    /// Tokenizes the bytes from position `start` on, as long as a token starts before `limit`,
    /// into `tokens` and counts each into `histogram`; returns the number of tokens and the
    /// position after the last. The tokens are those of the whole stream's parse when `start`
    /// is where one of its tokens starts, the masks are right from `start` on, and the bytes
    /// are known up to 260 past `limit` (or `limit` is the end): a token looks no further.
    ///
    /// - Precondition: as for ``tokenize(_:count:equalAt1:equalAt4:tokens:histogram:)``, with
    ///   the masks' words zero past the bytes.
    ///
    /// With `shortMatchCosts` (``shortMatchCostCount`` bits: a literal's for each byte, then a
    /// match's of 3 to 10 bytes), a match of at most ``shortMatchLongest`` bytes whose bytes
    /// cost fewer bits as literals is written as those literals (the far distance must be 2): on dense
    /// palette tiles, where a zero residual codes in a bit or two, a short run is dearer as a
    /// match. The tokens are then no longer the greedy parse, but still spell the same bytes.
    static func tokenize(
        _ bytes: UnsafePointer<UInt8>, from start: Int, until limit: Int, equalAt1: UnsafePointer<UInt64>,
        equalAt4: UnsafePointer<UInt64>, tokens: UnsafeMutablePointer<UInt16>, histogram: UnsafeMutablePointer<UInt32>,
        shortMatchCosts: UnsafePointer<Float>? = nil
    ) -> (tokens: Int, end: Int) {
        var t = 0
        var i = start
        while i < limit {
            let q = i >> 6
            let (low1, high1, low4, high4) = (equalAt1[q], equalAt1[q + 1], equalAt4[q], equalAt4[q + 1])
            // Bit k: a match of at least 3 bytes starts at byte 64q + k.
            let starts1 = low1 & (low1 >> 1 | high1 << 63) & (low1 >> 2 | high1 << 62)
            let starts4 = low4 & (low4 >> 1 | high4 << 63) & (low4 >> 2 | high4 << 62)
            let starts = starts1 | starts4
            let wordEnd = min((q + 1) << 6, limit)
            repeat {
                let k = UInt64(i & 63)
                let ahead = starts >> k
                if ahead & 1 == 0 {
                    // Literals up to the next match start in this word.
                    repeat {
                        let byte = bytes[i]
                        tokens[t] = UInt16(byte)
                        histogram[Int(byte)] &+= 1
                        t &+= 1
                        i &+= 1
                    } while i < wordEnd && starts &>> UInt64(i & 63) & 1 == 0
                    continue
                }
                // Equal bytes from i on, within the 128-bit window of this word and the next.
                var run1 = (~(low1 >> k | (high1 &<< 1) &<< (63 - k))).trailingZeroBitCount
                var run4 = (~(low4 >> k | (high4 &<< 1) &<< (63 - k))).trailingZeroBitCount
                if run1 == 64 || run4 == 64 {
                    // The run may go past the window: follow it through the next words, up to 258.
                    run1 = run1 == 64 ? min(258, run(in: equalAt1, from: i)) : run1
                    run4 = run4 == 64 ? min(258, run(in: equalAt4, from: i)) : run4
                }
                // A branch, not a conditional move: when predicted, the next position is known
                // before the runs are (measured: the move was 6% slower on the densest tile).
                let far = run4 > run1
                let length = far ? run4 : run1
                if let costs = shortMatchCosts, length <= shortMatchLongest {
                    // The bytes repeat the one before (near) or the two before (far): so many of each.
                    let first = costs[Int(bytes[i])]
                    let literalBits =
                        far
                        ? Float((length &+ 1) >> 1) * first + Float(length >> 1) * costs[Int(bytes[i &+ 1])]
                        : Float(length) * first
                    if literalBits < costs[253 &+ length] {
                        for _ in 0..<length {
                            let byte = bytes[i]
                            tokens[t] = UInt16(byte)
                            histogram[Int(byte)] &+= 1
                            t &+= 1
                            i &+= 1
                        }
                        continue
                    }
                }
                let token = 253 &+ length &+ (far ? 256 : 0)
                tokens[t] = UInt16(truncatingIfNeeded: token)
                histogram[token] &+= 1
                t &+= 1
                i &+= length
            } while i < wordEnd
        }
        return (t, i)
    }

    /// How many set bits of `masks` follow one another from bit `start` on, up to about 258:
    /// the length of the run of equal bytes there, a word at a time.
    ///
    /// - Precondition: the bits past the end of the data are 0, as
    ///   ``equalityMasks(_:count:near:far:)`` leaves them.
    static func run(in masks: UnsafePointer<UInt64>, from start: Int) -> Int {
        var length = 0
        var position = start
        while length < 258 {
            let offset = position & 63
            let ones = (~(masks[position >> 6] &>> UInt64(offset))).trailingZeroBitCount
            length &+= ones
            guard ones == 64 &- offset else { break }
            position &+= ones
        }
        return length
    }
}
