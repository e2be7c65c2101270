import HeatmapKit

/// What identifies a tile response: the layer, its data generation, the settings, the tile.
struct TileKey: Hashable, Sendable, CacheCost {
    var layer: String
    var generation: Int
    var settings: HeatmapSettings
    var zoom: Int
    var x: Int
    var y: Int
    var scale: Int

    /// The layer's name (shared with the layer, so counted once too often) and the settings'
    /// gradient arrays.
    var cacheCost: Int { HeapCost.string(layer) + settings.cacheCost }
}

/// A rendered tile, ready to answer from: PNG bytes and the hash of their strong ETag, or no
/// tile. The tag's text is made per response, so that a cached empty tile holds no string.
struct RenderedTile: CacheCost {
    var png: [UInt8]?
    private var hash: UInt64

    init(_ result: TileResult) {
        png = result.png
        hash = ETag.hash(png ?? [])
    }

    /// The strong ETag: `"HASH-LENGTH"` in hexadecimal.
    var etag: String { ETag.strong(hash: hash, count: png?.count ?? 0) }

    /// The PNG's storage.
    var cacheCost: Int { png.map(HeapCost.array) ?? 0 }
}

/// Strong entity tags from content: 64-bit FNV-1a and the length.
enum ETag {
    static func strong(for bytes: [UInt8]) -> String {
        strong(hash: hash(bytes), count: bytes.count)
    }

    static func strong(hash: UInt64, count: Int) -> String {
        "\"" + String(hash, radix: 16) + "-" + String(count, radix: 16) + "\""
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// Whether an `If-None-Match` value matches (weak comparison, as RFC 9110 asks for it).
    static func matches(_ header: [String], _ etag: String) -> Bool {
        let tags = header.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }
        let opaque = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return tags.contains { tag in tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == opaque }
    }
}
