import HeatmapTiles

/// A pre-rendered layer: tiles answered from an MBTiles file, a PMTiles file or a folder that
/// `heatmap render` (or any other tool writing PNG tiles) made.
public final class StoredLayer: Sendable {
    /// The name in URLs.
    public let name: String
    /// The archive's path.
    public let source: String
    /// Reads the stored tiles.
    public let reader: any TileArchiveReader

    /// Creates a layer over an opened archive.
    ///
    /// - Throws: ``OverrideError`` for a name unfit for URLs.
    public init(name: String, source: String, reader: any TileArchiveReader) throws(OverrideError) {
        guard ServedLayer.isValidName(name) else {
            throw OverrideError(
                "layer name \"\(name)\" must be 1-64 letters, digits, '-', '_' or '.', not starting with '.'")
        }
        self.name = name
        self.source = source
        self.reader = reader
    }
}
