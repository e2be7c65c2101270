/// The 127-byte header of a PMTiles v3 file: where the root directory, metadata, leaf
/// directories and tile data lie, the counts, the compression and the area.
struct PMTilesHeader: Sendable, Hashable {
    static let size = 127
    /// `internal_compression` and `tile_compression` values.
    static let compressionNone: UInt8 = 1
    static let compressionGzip: UInt8 = 2
    /// `tile_type` of PNG.
    static let typePNG: UInt8 = 2

    var rootOffset: UInt64 = 127
    var rootLength: UInt64 = 0
    var metadataOffset: UInt64 = 0
    var metadataLength: UInt64 = 0
    var leafOffset: UInt64 = 0
    var leafLength: UInt64 = 0
    var dataOffset: UInt64 = 0
    var dataLength: UInt64 = 0
    var addressedTiles: UInt64 = 0
    var tileEntries: UInt64 = 0
    var tileContents: UInt64 = 0
    var clustered = true
    var internalCompression = compressionGzip
    var tileCompression = compressionNone
    var tileType = typePNG
    var minZoom: UInt8 = 0
    var maxZoom: UInt8 = 0
    var minLongitudeE7: Int32 = -1_800_000_000
    var minLatitudeE7: Int32 = -850_511_287
    var maxLongitudeE7: Int32 = 1_800_000_000
    var maxLatitudeE7: Int32 = 850_511_287
    var centerZoom: UInt8 = 0
    var centerLongitudeE7: Int32 = 0
    var centerLatitudeE7: Int32 = 0

    var bytes: [UInt8] {
        var out = Array("PMTiles".utf8) + [3]
        for value in [
            rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, dataOffset, dataLength,
            addressedTiles, tileEntries, tileContents,
        ] {
            out += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        out += [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom]
        for value in [minLongitudeE7, minLatitudeE7, maxLongitudeE7, maxLatitudeE7] { Self.append(value, to: &out) }
        out.append(centerZoom)
        Self.append(centerLongitudeE7, to: &out)
        Self.append(centerLatitudeE7, to: &out)
        return out
    }

    private static func append(_ value: Int32, to out: inout [UInt8]) {
        let bits = UInt32(bitPattern: value)
        out += (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }

    init() {}

    /// Parses a header; `nil` unless it is PMTiles version 3.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.size, Array(bytes[0..<7]) == Array("PMTiles".utf8), bytes[7] == 3 else {
            return nil
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) })
        }
        rootOffset = u64(8)
        rootLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafOffset = u64(40)
        leafLength = u64(48)
        dataOffset = u64(56)
        dataLength = u64(64)
        addressedTiles = u64(72)
        tileEntries = u64(80)
        tileContents = u64(88)
        clustered = bytes[96] == 1
        internalCompression = bytes[97]
        tileCompression = bytes[98]
        tileType = bytes[99]
        minZoom = bytes[100]
        maxZoom = bytes[101]
        minLongitudeE7 = i32(102)
        minLatitudeE7 = i32(106)
        maxLongitudeE7 = i32(110)
        maxLatitudeE7 = i32(114)
        centerZoom = bytes[118]
        centerLongitudeE7 = i32(119)
        centerLatitudeE7 = i32(123)
    }

    /// Degrees as PMTiles' fixed point, 10^-7 degree, within Int32.
    static func e7(_ degrees: Double) -> Int32 {
        let value = (degrees * 10_000_000).rounded()
        guard value.isFinite else { return 0 }
        return Int32(min(max(value, -2_000_000_000), 2_000_000_000))
    }
}
