import HeatmapKit

/// What identifies a tile response: the layer, its data generation, the settings, the tile.
struct TileKey: Hashable, Sendable {
    var layer: String
    var generation: Int
    var settings: HeatmapSettings
    var zoom: Int
    var x: Int
    var y: Int
    var scale: Int
}

/// A rendered tile, ready to answer from: PNG bytes and their strong ETag, or no tile.
struct RenderedTile: CacheCost {
    var png: [UInt8]?
    var etag: String

    init(_ result: TileResult) {
        png = result.png
        etag = ETag.strong(for: png ?? [])
    }

    var cacheCost: Int { 128 + (png?.count ?? 0) }
}

/// Strong entity tags from content: 64-bit FNV-1a and the length.
enum ETag {
    static func strong(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "-" + String(bytes.count, radix: 16) + "\""
    }

    /// Whether an `If-None-Match` value matches (weak comparison, as RFC 9110 asks for it).
    static func matches(_ header: [String], _ etag: String) -> Bool {
        let tags = header.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }
        let opaque = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return tags.contains { tag in tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == opaque }
    }
}
