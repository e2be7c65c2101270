import CZlib
import HeatmapCore
import Testing

@testable import HeatmapKit

@Suite struct CRC32Tests {
    /// zlib's crc32, the reference.
    static func zlib(_ bytes: [UInt8], _ crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
    }

    @Test("the Swift CRC-32 equals zlib's on every length up to 300, on 1 MiB, and taken in parts")
    func matchesZlib() {
        var generator = SplitMix64(seed: 32)
        let random = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for length in 0...300 {
            let bytes = Array(random[7..<(7 + length)])
            #expect(CRC32.checksum(bytes) == Self.zlib(bytes), "\(length) bytes")
        }
        #expect(CRC32.checksum(random) == Self.zlib(random))
        #expect(
            CRC32.checksum([UInt8](repeating: 0xFF, count: 1 << 20))
                == Self.zlib([UInt8](repeating: 0xFF, count: 1 << 20)))
        let first = CRC32.checksum(Array(random[0..<1001]))
        #expect(CRC32.checksum(Array(random[1001...]), continuing: first) == Self.zlib(random))
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
