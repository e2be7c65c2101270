import CZlib

/// gzip members (RFC 1952) through zlib, for PMTiles' directories and metadata (and the
/// server's `Content-Encoding: gzip`).
package enum Gzip {
    /// `bytes` as one gzip member: zlib's deflate at the default level, with CRC-32 and size.
    public static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var bound = compressBound(uLong(bytes.count))
        var zlibStream = [UInt8](repeating: 0, count: Int(bound))
        let status = bytes.withUnsafeBufferPointer { source in
            zlibStream.withUnsafeMutableBufferPointer { out in
                compress2(out.baseAddress, &bound, source.baseAddress, uLong(source.count), czlib_default_compression)
            }
        }
        guard status == czlib_ok, bound >= 6 else { return nil }
        // A zlib stream is a 2-byte header, the raw deflate data and an Adler-32: keep the data.
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
        out += zlibStream[2..<(Int(bound) - 4)]
        let crc = bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt(truncatingIfNeeded: $0.count)) }
        for value in [UInt32(truncatingIfNeeded: crc), UInt32(truncatingIfNeeded: bytes.count)] {
            out += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        return out
    }

    /// The data of a gzip member, or `nil` when it is not gzip, is damaged or inflates beyond `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int = 1 << 28) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == czlib_ok else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(truncatingIfNeeded: source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(truncatingIfNeeded: buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                out += chunk[0..<produced]
                guard out.count <= limit else { return nil }
                if status == czlib_stream_end { return out }
                guard status == czlib_ok, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
