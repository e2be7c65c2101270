import HeatmapKit
import HeatmapTiles

/// A pre-rendered layer: tiles answered from an MBTiles file, a PMTiles file or a folder that
/// `heatmap render` (or any other tool writing PNG tiles) made. It is a ``TileLayer`` like any
/// other, so the server hosts it, stacks it and draws static images from it.
package final class StoredLayer: SyncTileLayer {
    /// The name in URLs.
    package let name: String
    /// The archive's path.
    package let source: String
    /// Reads the stored tiles.
    package let reader: any TileArchiveReader

    /// Creates a layer over an opened archive.
    ///
    /// - Throws: ``OverrideError`` for a name unfit for URLs.
    package init(name: String, source: String, reader: any TileArchiveReader) throws(OverrideError) {
        guard ServedLayer.isValidName(name) else {
            throw OverrideError(
                "layer name \"\(name)\" must be 1-64 letters, digits, '-', '_' or '.', not starting with '.'")
        }
        self.name = name
        self.source = source
        self.reader = reader
    }

    /// The stored tiles' side: 256 × the scale they were rendered at (at every requested scale:
    /// map clients size tiles themselves).
    package var tileSize: Int { 256 * storedScale }

    /// The scale the tiles were rendered at, 1...3 (from the archive's metadata).
    package var storedScale: Int { min(max(reader.metadata.scale, 1), 3) }

    /// The stored bytes, or no tile where none is stored.
    ///
    /// - Throws: ``TileLayerError/invalidRequest(_:)`` off the grid; the reader's error otherwise.
    package func tileFor(_ tile: TileRequest) throws -> TileResult {
        try tile.validate()
        return try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y).map { .image($0) } ?? .noTile
    }
}
