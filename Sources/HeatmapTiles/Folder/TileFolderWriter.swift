import Foundation

/// Writes `dir/{z}/{x}/{y}.png` (`{y}@2x.png`, `{y}@3x.png` at scales 2 and 3; `.webp` for WebP) and
/// `dir/metadata.json`. Each tile is written under a temporary name and renamed, so a tile
/// file is always whole; an interrupted render keeps the finished tiles and can resume.
package final class TileFolderWriter: TileSink {
    /// The folder.
    package let path: String
    let metadata: TileMetadata
    private var madeFolders = Set<Int>()  // z << 32 | x
    private let resuming: Bool
    /// The bytes of tile files written.
    package private(set) var bytesWritten = 0

    /// The name of the metadata file in the folder.
    package static let metadataFile = "metadata.json"

    /// Creates the folder (and its parents) and writes `metadata.json`.
    ///
    /// - Throws: ``TileArchiveError``: `.exists` for a non-empty folder under `.create`;
    ///   `.cannotResume` (or refusing to overwrite) a folder that `heatmap render` did not write
    ///   or wrote with other options; `.unwritable`.
    package init(path: String, metadata: TileMetadata, mode: OutputMode) throws(TileArchiveError) {
        self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        self.metadata = metadata
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        let exists = manager.fileExists(atPath: self.path, isDirectory: &isFolder)
        if exists && !isFolder.boolValue {
            throw TileArchiveError(.unwritable, path: self.path, "is a file, not a folder")
        }
        let entries = exists ? ((try? manager.contentsOfDirectory(atPath: self.path)) ?? []) : []
        let metadataPath = self.path + "/" + Self.metadataFile
        let stored = try? TileFolderReader.readMetadata(metadataPath)
        resuming = !entries.isEmpty && mode == .resume
        if !entries.isEmpty {
            switch mode {
            case .create:
                throw TileArchiveError(
                    .exists, path: self.path,
                    "is not empty; --force replaces a folder heatmap render wrote, --resume continues it")
            case .overwrite, .resume:
                guard let stored else {
                    throw TileArchiveError(
                        .cannotResume, path: self.path,
                        "is not empty and has no \(Self.metadataFile) of heatmap render; it is left alone")
                }
                if mode == .resume, stored.options != metadata.options {
                    throw TileArchiveError(
                        .cannotResume, path: self.path,
                        "was rendered with other options, so it cannot be resumed: it has \(stored.optionsJSON), this render \(metadata.optionsJSON); use --force to start again"
                    )
                }
                if mode == .overwrite {
                    for entry in entries where entry == Self.metadataFile || Int(entry) != nil {
                        try? manager.removeItem(atPath: self.path + "/" + entry)
                    }
                }
            }
        }
        do {
            try manager.createDirectory(atPath: self.path, withIntermediateDirectories: true)
        } catch {
            throw TileArchiveError(
                .unwritable, path: self.path, "cannot create the folder: \(error.localizedDescription)")
        }
        try writeFile(metadataPath, bytes: TileFolderReader.encode(metadata))
    }

    /// The file name of a tile's row at a scale: `7.png`, `7@2x.png` (`7.webp` for WebP).
    package static func fileName(y: Int, scale: Int, format: TileImageFormat = .png) -> String {
        (scale == 1 ? "\(y)." : "\(y)@\(scale)x.") + format.fileExtension
    }

    /// The tiles in the folder at this render's scale (when resuming).
    package func storedTiles() throws(TileArchiveError) -> Set<TileCoordinate> {
        guard resuming else { return [] }
        let manager = FileManager.default
        let suffix = (metadata.scale == 1 ? "." : "@\(metadata.scale)x.") + metadata.imageFormat.fileExtension
        var tiles = Set<TileCoordinate>()
        for zoomName in (try? manager.contentsOfDirectory(atPath: path)) ?? [] {
            guard let zoom = Int(zoomName), (0...22).contains(zoom) else { continue }
            for columnName in (try? manager.contentsOfDirectory(atPath: "\(path)/\(zoomName)")) ?? [] {
                guard let x = Int(columnName) else { continue }
                for file in (try? manager.contentsOfDirectory(atPath: "\(path)/\(zoomName)/\(columnName)")) ?? []
                where file.hasSuffix(suffix) {
                    guard let y = Int(file.dropLast(suffix.count)) else { continue }
                    tiles.insert(TileCoordinate(zoom: zoom, x: x, y: y))
                }
            }
        }
        return tiles
    }

    /// Writes a tile's file under a temporary name and renames it into place.
    package func write(_ tile: TileCoordinate, data: [UInt8]) throws(TileArchiveError) {
        let folder = "\(path)/\(tile.zoom)/\(tile.x)"
        let key = tile.zoom << 32 | tile.x
        if !madeFolders.contains(key) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw TileArchiveError(
                    .unwritable, path: folder, "cannot create the folder: \(error.localizedDescription)")
            }
            madeFolders.insert(key)
        }
        try writeFile(
            folder + "/" + Self.fileName(y: tile.y, scale: metadata.scale, format: metadata.imageFormat), bytes: data)
        bytesWritten += data.count
        committedTiles = (committedTiles ?? 0) + 1
    }

    private func writeFile(_ target: String, bytes: [UInt8]) throws(TileArchiveError) {
        let temporary = target + ".partial"
        do {
            let file = try POSIXFile(path: temporary, writing: true)
            try file.write(bytes)
        } catch {
            unlink(temporary)
            throw error
        }
        try POSIXFile.rename(temporary, to: target)
    }

    /// The tiles renamed into place so far.
    package private(set) var committedTiles: Int? = 0

    /// Nothing to do: every file is in place once written.
    package func checkpoint() throws(TileArchiveError) {}

    /// Nothing to do: the metadata was written first.
    package func finish() throws(TileArchiveError) {}

    /// Keeps the finished tiles.
    package func stop() -> Bool { true }
}
