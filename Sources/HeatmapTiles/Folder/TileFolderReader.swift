import Foundation

/// Reads a folder of `{z}/{x}/{y}.png` (`@2x`, `@3x` by its metadata's scale) from any thread.
///
/// Only regular files inside the folder are read: a tile whose resolved path leaves the folder
/// (a symbolic link to `/etc/passwd`, or a linked `z` or `x` folder elsewhere), a device, FIFO
/// or socket, a file over 16 MiB, and a file that is not a PNG are errors naming the file. A
/// link inside the folder to a tile inside it is followed (deduplicated tile sets use them).
package struct TileFolderReader: TileArchiveReader {
    /// The folder.
    package let path: String
    /// The folder resolved (absolute, without links): every tile read lies inside it.
    let root: String
    /// From `metadata.json`, or defaults when there is none.
    package let metadata: TileMetadata

    /// Opens a folder.
    ///
    /// - Throws: ``TileArchiveError`` when it is not a folder or its metadata is unreadable.
    package init(path: String) throws(TileArchiveError) {
        let folder = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw TileArchiveError(.invalid, path: folder, "is not a folder")
        }
        self.path = folder
        guard let root = try POSIXFile.resolved(folder) else {
            throw TileArchiveError(.invalid, path: folder, "is not a folder")
        }
        self.root = root
        let metadataPath = folder + "/" + TileFolderWriter.metadataFile
        if let data = try POSIXFile.readContained(metadataPath, inside: root, limit: StoredTile.maximumBytes) {
            metadata = try Self.decodeMetadata(data, path: metadataPath)
        } else {
            metadata = TileMetadata(
                name: folder.split(separator: "/").last.map(String.init) ?? folder,
                bounds: .init(south: -85.0511, west: -180, north: 85.0511, east: 180),
                center: TileCenter(longitude: 0, latitude: 0, zoom: 0), minZoom: 0, maxZoom: 22)
        }
    }

    /// The tile's file, or `nil` when there is none.
    ///
    /// - Throws: ``TileArchiveError`` when the file leads out of the folder, is not a regular
    ///   file, is over 16 MiB or is not a PNG.
    package func tileData(z: Int, x: Int, y: Int) throws(TileArchiveError) -> [UInt8]? {
        guard TileCoordinate(zoom: z, x: x, y: y).isValid else { return nil }
        let file = "\(path)/\(z)/\(x)/" + TileFolderWriter.fileName(y: y, scale: metadata.scale)
        guard let bytes = try POSIXFile.readContained(file, inside: root, limit: StoredTile.maximumBytes) else {
            return nil
        }
        return try StoredTile.checked(bytes, z: z, x: x, y: y, path: file)
    }

    static func encode(_ metadata: TileMetadata) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return ((try? encoder.encode(metadata)).map { [UInt8]($0) } ?? []) + [0x0a]
    }

    static func readMetadata(_ path: String) throws(TileArchiveError) -> TileMetadata {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TileArchiveError(.invalid, path: path, "cannot be read")
        }
        return try decodeMetadata([UInt8](data), path: path)
    }

    static func decodeMetadata(_ data: [UInt8], path: String) throws(TileArchiveError) -> TileMetadata {
        do {
            return try JSONDecoder().decode(TileMetadata.self, from: Data(data))
        } catch {
            throw TileArchiveError(.invalid, path: path, "is not the metadata heatmap render writes: \(error)")
        }
    }

    /// A JSON object of strings (the stored options), or none.
    static func options(fromJSON text: String) -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }
}
