/// Adler-32 (RFC 1950), the checksum that ends a zlib stream, 32 bytes at a time with SIMD:
/// for a block x₀…x₃₁, a grows by Σxᵢ and b by 32·a + Σ(32 − i)·xᵢ.
///
/// zlib's own `adler32` works byte by byte and took a quarter of the time of encoding a
/// 512-pixel tile.
enum Adler32 {
    /// The checksum of `bytes`, starting from 1 as zlib does.
    ///
    /// - Complexity: O(n).
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let modulus: UInt64 = 65521
        var a: UInt64 = 1
        var b: UInt64 = 0
        guard let base = bytes.baseAddress else { return 1 }
        let raw = UnsafeRawPointer(base)
        let weights = SIMD32<UInt32>(
            32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,
            4,
            3, 2, 1)
        let blocks = bytes.count / 32
        var block = 0
        while block < blocks {
            // 64-bit sums cannot overflow within 4096 blocks; reduce then.
            let end = min(blocks, block + 4096)
            while block < end {
                let x = SIMD32<UInt32>(
                    truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: block * 32, as: SIMD32<UInt8>.self))
                b &+= 32 &* a &+ UInt64((x &* weights).wrappedSum())
                a &+= UInt64(x.wrappedSum())
                block += 1
            }
            a %= modulus
            b %= modulus
        }
        for i in (blocks * 32)..<bytes.count {
            a &+= UInt64(base[i])
            b &+= a
        }
        return UInt32(((b % modulus) << 16) | (a % modulus))
    }
}
