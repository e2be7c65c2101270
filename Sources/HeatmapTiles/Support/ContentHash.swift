/// 64-bit FNV-1a of some bytes, to find identical tiles (equal bytes are compared before sharing).
enum ContentHash {
    static func of(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// The hash and length as 24 hexadecimal digits, an MBTiles `tile_id`.
    static func identifier(_ bytes: [UInt8]) -> String {
        let hash = String(of(bytes), radix: 16)
        let length = String(bytes.count, radix: 16)
        return String(repeating: "0", count: 16 - hash.count) + hash
            + String(repeating: "0", count: max(0, 8 - length.count))
            + length
    }
}
