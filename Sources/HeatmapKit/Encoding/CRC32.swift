/// CRC-32 (ISO-HDLC: reflected polynomial 0xEDB88320, the checksum of PNG chunks and gzip
/// members), eight bytes a step with eight tables ("slicing by 8"), in Swift so that the
/// PNG encoder and decoder need no zlib for it. Equals zlib's `crc32` on every input (tested).
package enum CRC32 {
    /// 8 × 256 entries: table k maps a byte to its CRC followed by k zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            for k in 1..<8 {
                let previous = tables[(k - 1) * 256 + byte]
                tables[k * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The CRC of `bytes` after the bytes whose CRC is `crc` (0 for none), so that a
    /// checksum may be taken a part at a time, as zlib's `crc32(crc, bytes, count)`.
    ///
    /// - Complexity: O(n).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return tables.withUnsafeBufferPointer { table -> UInt32 in
            guard let t = table.baseAddress else { return crc }
            var c = ~crc
            var i = 0
            let count = bytes.count
            while i + 8 <= count {
                let low = c ^ UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                let high = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
                c =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < count {
                c = (c >> 8) ^ t[Int((c ^ UInt32(base.load(fromByteOffset: i, as: UInt8.self))) & 0xFF)]
                i += 1
            }
            return ~c
        }
    }

    /// The CRC of `bytes` after the bytes whose CRC is `crc` (0 for none).
    package static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
