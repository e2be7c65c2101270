import HeatmapKit

/// What the server answers for a tile with nothing within reach.
package enum EmptyTile: String, Sendable, CaseIterable {
    /// 204 No Content (the default; MapLibre takes it as an empty tile).
    case noContent = "204"
    /// 200 with a fully transparent PNG of the tile's size (Leaflet and OpenLayers count a 204
    /// as a tile error).
    case png

    /// The transparent PNGs of 256, 512 and 768 pixels with their strong ETags.
    private static let transparent: [(bytes: [UInt8], etag: String)] = (1...3).map { scale in
        let side = 256 * scale
        let bytes = (try? PNGEncoder().encode(RGBAImage(transparentWidth: side, height: side))) ?? []
        return (bytes, ETag.strong(for: bytes))
    }

    /// The transparent PNG for tiles of `scale` (1...3), `nil` if it could not be encoded.
    static func transparentPNG(scale: Int) -> (bytes: [UInt8], etag: String)? {
        guard (1...3).contains(scale), !transparent[scale - 1].bytes.isEmpty else { return nil }
        return transparent[scale - 1]
    }
}
