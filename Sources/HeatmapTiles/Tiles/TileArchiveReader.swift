/// A pre-rendered tile set that answers stored bytes: an MBTiles file, a PMTiles file or a folder.
public protocol TileArchiveReader: Sendable {
    /// What the archive records about itself.
    var metadata: TileMetadata { get }

    /// The stored PNG of a tile, or `nil` when the archive holds none (nothing to draw there).
    func tileData(z: Int, x: Int, y: Int) throws(TileArchiveError) -> [UInt8]?
}

/// Opens any of the archives by its name: `.mbtiles`, `.pmtiles`, or a folder.
public enum TileArchive {
    /// The kinds of archive.
    public enum Kind: String, Sendable, Hashable {
        /// An MBTiles 1.3 SQLite file.
        case mbtiles
        /// A PMTiles v3 file.
        case pmtiles
        /// A folder of `{z}/{x}/{y}.png`.
        case folder
    }

    /// The kind of archive a path names: by its extension, else a folder; `nil` for another extension.
    public static func kind(of path: String) -> Kind? {
        let lower = path.lowercased()
        if lower.hasSuffix(".mbtiles") { return .mbtiles }
        if lower.hasSuffix(".pmtiles") { return .pmtiles }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        if path.hasSuffix("/") || !last.contains(".") { return .folder }
        return nil
    }

    /// Opens an archive for reading.
    public static func open(_ path: String) throws(TileArchiveError) -> any TileArchiveReader {
        switch kind(of: path) {
        case .mbtiles: return try MBTilesReader(path: path)
        case .pmtiles: return try PMTilesReader(path: path)
        case .folder: return try TileFolderReader(path: path)
        case nil:
            throw TileArchiveError(.invalid, path: path, "is not .mbtiles, .pmtiles or a folder")
        }
    }

    /// A writer of the archive at `path`, by its kind (``kind(of:)``).
    package static func writer(
        _ path: String, metadata: TileMetadata, mode: OutputMode
    ) throws(TileArchiveError) -> any TileSink {
        switch kind(of: path) {
        case .mbtiles: return try MBTilesWriter(path: path, metadata: metadata, mode: mode)
        case .pmtiles: return try PMTilesWriter(path: path, metadata: metadata, mode: mode)
        case .folder: return try TileFolderWriter(path: path, metadata: metadata, mode: mode)
        case nil:
            throw TileArchiveError(.invalid, path: path, "is not .mbtiles, .pmtiles or a folder")
        }
    }
}
