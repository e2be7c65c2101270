/// The image format of a tile set's tiles: PNG (the default) or WebP (`--format webp`).
public enum TileImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// PNG: RGBA, or a palette image when the tile takes at most 256 colours.
    case png
    /// WebP, lossless or lossy.
    case webp

    /// The file name extension without the dot, as in tile URLs and folders: `png`, `webp`.
    public var fileExtension: String { rawValue }

    /// The HTTP media type.
    public var mediaType: String { "image/\(rawValue)" }

    /// The PMTiles v3 header's tile type: 2 for PNG, 4 for WebP.
    package var pmtilesType: UInt8 { self == .png ? 2 : 4 }
}
