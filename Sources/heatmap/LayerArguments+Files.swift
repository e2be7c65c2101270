import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTiles

extension LayerArguments {
    /// A file's name without folder and extension: `data/police.json` (or `.json.gz`) is `police`.
    static func layerName(_ path: String) -> String {
        var file = path.split(separator: "/").last.map(String.init) ?? path
        if file.hasSuffix(".gz") { file.removeLast(3) }
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// Whether a file is pre-rendered tiles (`.mbtiles`, `.pmtiles` or a folder), not points.
    static func isArchive(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return true }
        let lower = path.lowercased()
        return lower.hasSuffix(".mbtiles") || lower.hasSuffix(".pmtiles")
    }

    /// Opens pre-rendered tiles.
    static func open(_ path: String) throws(LayerLoadError) -> any TileArchiveReader {
        do {
            return try TileArchive.open(path)
        } catch {
            throw LayerLoadError(error.description)
        }
    }

    /// The one place data files are read, for start and for reloads, with the data options.
    static func load(_ path: String, options: PointReadOptions) throws(LayerLoadError) -> LayerData {
        let data = try LayerData.load(path: path, options: options)
        if let summary = data.skipSummary { StandardStreams.error("heatmap: \(summary)\n") }
        if let summary = data.longRowSummary { StandardStreams.error("heatmap: \(summary)\n") }
        return data
    }
}
