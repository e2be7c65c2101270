import HeatmapKit

/// What every archive reader answers of a stored tile: at most ``maximumBytes`` (as URL layers
/// read), and only a PNG, the archives' one format: a hostile or damaged archive's other bytes
/// (text, an integer, a file that is not an image) are an error naming the tile, never served
/// as `image/png`.
enum StoredTile {
    /// The largest stored tile read, in bytes (URL layers' body limit).
    static let maximumBytes = 16 << 20

    /// `bytes`, when they are framed as a PNG is (the signature and IHDR first, IEND last: a
    /// body cut short is refused, as URL layers refuse one).
    ///
    /// - Throws: ``TileArchiveError`` of kind `.invalid` naming the archive and the tile.
    static func checked(_ bytes: [UInt8], z: Int, x: Int, y: Int, path: String) throws(TileArchiveError) -> [UInt8] {
        guard PNGHeader(bytes) != nil, PNGHeader.isComplete(bytes) else {
            throw TileArchiveError(.invalid, path: path, "tile \(z)/\(x)/\(y) is not a PNG image")
        }
        return bytes
    }

    /// The error for a stored tile beyond ``maximumBytes``.
    static func tooLarge(z: Int, x: Int, y: Int, bytes: Int, path: String) -> TileArchiveError {
        TileArchiveError(
            .invalid, path: path, "tile \(z)/\(x)/\(y) holds \(bytes) bytes, over the \(maximumBytes >> 20) MiB limit")
    }
}
