import Foundation

/// Reads a folder of `{z}/{x}/{y}.png` (`@2x`, `@3x` by its metadata's scale) from any thread.
public struct TileFolderReader: TileArchiveReader {
    /// The folder.
    public let path: String
    /// From `metadata.json`, or defaults when there is none.
    public let metadata: TileMetadata

    /// Opens a folder.
    ///
    /// - Throws: ``TileArchiveError`` when it is not a folder or its metadata is unreadable.
    public init(path: String) throws(TileArchiveError) {
        let folder = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw TileArchiveError(.invalid, path: folder, "is not a folder")
        }
        self.path = folder
        let metadataPath = folder + "/" + TileFolderWriter.metadataFile
        if FileManager.default.fileExists(atPath: metadataPath) {
            metadata = try Self.readMetadata(metadataPath)
        } else {
            metadata = TileMetadata(
                name: folder.split(separator: "/").last.map(String.init) ?? folder,
                bounds: .init(south: -85.0511, west: -180, north: 85.0511, east: 180),
                center: TileCenter(longitude: 0, latitude: 0, zoom: 0), minZoom: 0, maxZoom: 22)
        }
    }

    /// The tile's file, or `nil` when there is none.
    public func tileData(z: Int, x: Int, y: Int) throws(TileArchiveError) -> [UInt8]? {
        guard TileCoordinate(zoom: z, x: x, y: y).isValid else { return nil }
        let file = "\(path)/\(z)/\(x)/" + TileFolderWriter.fileName(y: y, scale: metadata.scale)
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        return [UInt8](data)
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
        do {
            return try JSONDecoder().decode(TileMetadata.self, from: data)
        } catch {
            throw TileArchiveError(.invalid, path: path, "is not the metadata heatmap render writes: \(error)")
        }
    }

    /// A JSON object of strings (the stored options), or none.
    static func options(fromJSON text: String) -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }
}
