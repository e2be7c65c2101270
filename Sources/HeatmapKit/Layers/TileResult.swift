/// The answer to a request for a tile.
public enum TileResult: Sendable, Hashable {
    /// The tile, as PNG bytes (256, 512 or 768 pixels square for scale 1, 2 or 3).
    case image([UInt8])
    /// Nothing to draw: no point of positive weight lies within reach of the tile
    /// (Google's `kGMSTileLayerNoTile`). Asking again gives the same answer until the data change.
    case noTile
    /// The tile cannot be answered yet (the data are still being indexed, or the request was
    /// cancelled first); ask again later (Google's `nil`).
    case notAvailableYet

    /// The PNG bytes of an image, `nil` otherwise.
    public var png: [UInt8]? {
        if case .image(let bytes) = self { return bytes }
        return nil
    }
}
