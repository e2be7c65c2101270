/// A short, stable hash of a text for names HeatmapKit makes in the database (a `--where`
/// condition's function, a long table's derived names): 64-bit FNV-1a of its UTF-8 bytes.
enum NameHash {
    /// The hash of `text`.
    static func value(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash of `text` as `digits` lowercase hexadecimal digits (its low bits), zero-padded.
    static func hex(_ text: String, digits: Int = 16) -> String {
        let bits = digits >= 16 ? value(text) : value(text) & ((1 << UInt64(4 * digits)) - 1)
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: max(0, digits - hex.count)) + hex
    }
}
