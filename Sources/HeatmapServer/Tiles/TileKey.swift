import HeatmapKit

/// What identifies a tile response: the layer (or stack), the epoch of its data (reloads), the
/// settings given with the request (canonical, see ``SettingOverrides``), the tile.
struct TileKey: Hashable, Sendable, CacheCost {
    var layer: String
    var generation: Int
    var settings: SettingOverrides
    var zoom: Int
    var x: Int
    var y: Int
    var scale: Int

    /// The layer's name (shared with the layer, so counted once too often) and the settings' query.
    var cacheCost: Int { HeapCost.string(layer) + settings.cacheCost }

    /// The request the tile answers.
    var request: TileRequest { TileRequest(x: x, y: y, zoom: zoom, scale: scale) }
}

/// A rendered tile, ready to answer from: PNG bytes and the hash of their strong ETag, or no
/// tile. The tag's text is made per response, so that a cached empty tile holds no string.
struct RenderedTile: CacheCost {
    var png: [UInt8]?
    private var hash: UInt64
    /// What the tile depends on beyond its key: each live layer drawn into it, with the
    /// generation of the data and the M(z) it was drawn with (see ServedLayer+Invalidation.swift).
    var dependencies: TileDependencies

    init(_ result: TileResult, dependencies: TileDependencies = .none) {
        png = result.png
        hash = ETag.hash(png ?? [])
        self.dependencies = dependencies
    }

    /// The answer: the image, or no tile.
    var result: TileResult { png.map { .image($0) } ?? .noTile }

    /// The strong ETag: `"HASH-LENGTH"` in hexadecimal.
    var etag: String { ETag.strong(hash: hash, count: png?.count ?? 0) }

    /// The PNG's storage and the dependencies' list.
    var cacheCost: Int { (png.map(HeapCost.array) ?? 0) + dependencies.cacheCost }
}

/// What a live layer's tile was drawn from: the layer, the generation of its data, the M(z) its
/// colours used (`nil` for no tile and the mean, which need none) and the settings given.
struct TileDependency: Sendable {
    let layer: any LiveTileLayer
    var drawnAt: Int
    var normalization: Double?
    let settings: SettingOverrides
}

/// The live layers a cached tile was drawn from: none (a URL layer, an archive), one (a heatmap,
/// or a stack over one), or more (a stack of several).
enum TileDependencies: Sendable {
    case none
    case one(TileDependency)
    case many([TileDependency])

    /// Every one, in order.
    var all: [TileDependency] {
        switch self {
        case .none: []
        case .one(let dependency): [dependency]
        case .many(let list): list
        }
    }

    /// The list of `list`.
    init(_ list: [TileDependency]) {
        switch list.count {
        case 0: self = .none
        case 1: self = .one(list[0])
        default: self = .many(list)
        }
    }

    var cacheCost: Int {
        if case .many(let list) = self { return HeapCost.array(list) }
        return 0
    }
}

/// Strong entity tags from content: a 64-bit FNV-1a-style hash and the length.
enum ETag {
    static func strong(for bytes: [UInt8]) -> String {
        strong(hash: hash(bytes), count: bytes.count)
    }

    /// `"HASH-LENGTH"`, lowercase hexadecimal without leading zeros, written in one allocation
    /// (it is made for every tile response).
    static func strong(hash: UInt64, count: Int) -> String {
        let length = UInt64(UInt(bitPattern: max(0, count)))
        func digits(_ value: UInt64) -> Int { value == 0 ? 1 : (67 - value.leadingZeroBitCount) / 4 }
        let total = digits(hash) + digits(length) + 3
        return String(unsafeUninitializedCapacity: total) { buffer in
            var i = 0
            func put(_ byte: UInt8) {
                buffer[i] = byte
                i += 1
            }
            func put(hex value: UInt64) {
                var shift = (digits(value) - 1) * 4
                while shift >= 0 {
                    let digit = UInt8(truncatingIfNeeded: (value >> UInt64(shift)) & 0xF)
                    put(digit < 10 ? 0x30 + digit : 0x57 + digit)
                    shift -= 4
                }
            }
            put(UInt8(ascii: "\""))
            put(hex: hash)
            put(UInt8(ascii: "-"))
            put(hex: length)
            put(UInt8(ascii: "\""))
            return i
        }
    }

    /// FNV-1a's step over 8-byte words in four independent lanes (a byte-at-a-time FNV-1a cost
    /// 0.3 ms, a twentieth of the render, for a 200 kB tile), then the tail's bytes.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        let prime: UInt64 = 0x100_0000_01b3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_cbf2_2325_8422, 0x2325_8422_9ce4_cbf2
        )
        return bytes.withUnsafeBytes { raw in
            var i = 0
            while i + 32 <= raw.count {
                lanes.0 = (lanes.0 ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* prime
                lanes.1 = (lanes.1 ^ raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* prime
                lanes.2 = (lanes.2 ^ raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* prime
                lanes.3 = (lanes.3 ^ raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* prime
                i += 32
            }
            var hash = lanes.0
            for lane in [lanes.1, lanes.2, lanes.3] { hash = (hash ^ (lane ^ lane >> 29)) &* prime }
            while i < raw.count {
                hash = (hash ^ UInt64(raw[i])) &* prime
                i += 1
            }
            return hash
        }
    }

    /// Whether an `If-None-Match` value matches (weak comparison, as RFC 9110 asks for it).
    static func matches(_ header: [String], _ etag: String) -> Bool {
        let tags = header.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }
        let opaque = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return tags.contains { tag in tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == opaque }
    }
}
