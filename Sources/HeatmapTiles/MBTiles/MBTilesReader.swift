import Foundation
import HeatmapKit
import Synchronization

/// Reads the tiles of any MBTiles file (a `tiles` table or view, TMS rows), from any thread.
public final class MBTilesReader: TileArchiveReader {
    private struct Connection: @unchecked Sendable {  // only used under the mutex
        let database: SQLiteDatabase
        let select: SQLiteStatement
    }

    private let connection: Mutex<Connection>
    /// The metadata table, with defaults for rows it lacks.
    public let metadata: TileMetadata
    /// The file.
    public let path: String

    /// Opens a file read-only.
    ///
    /// - Throws: ``TileArchiveError`` when it is missing, not SQLite or has no `tiles`.
    public init(path: String) throws(TileArchiveError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw TileArchiveError(.invalid, path: path, "does not exist")
        }
        self.path = path
        let database = try SQLiteDatabase(path: path, readOnly: true)
        let select: SQLiteStatement
        var rows: [String: String] = [:]
        do {
            select = try database.prepare(
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
            let query = try database.prepare("SELECT name, value FROM metadata")
            query.bind([])
            while try query.step() { rows[query.text(0)] = query.text(1) }
        } catch {
            throw TileArchiveError(.invalid, path: path, "is not an MBTiles file: \(error.reason)")
        }
        if let format = rows["format"], format != "png" {
            throw TileArchiveError(.invalid, path: path, "holds \(format) tiles; only png tiles are served")
        }
        metadata = Self.metadata(rows, path: path)
        connection = Mutex(Connection(database: database, select: select))
    }

    static func metadata(_ rows: [String: String], path: String) -> TileMetadata {
        let numbers = { (key: String) -> [Double] in
            (rows[key] ?? "").split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        let b = numbers("bounds")
        let bounds =
            b.count == 4 && b.allSatisfy(\.isFinite)
            ? PointBounds(south: b[1], west: b[0], north: b[3], east: b[2])
            : PointBounds(south: -85.0511, west: -180, north: 85.0511, east: 180)
        let minZoom = Int(rows["minzoom"] ?? "").map { min(max($0, 0), 22) } ?? 0
        let maxZoom = Int(rows["maxzoom"] ?? "").map { min(max($0, minZoom), 22) } ?? 22
        let c = numbers("center")
        let center =
            c.count == 3 && c.allSatisfy(\.isFinite) && abs(c[2]) <= 22
            ? TileCenter(longitude: c[0], latitude: c[1], zoom: Int(c[2]))
            : TileCenter(
                longitude: (bounds.west + bounds.east) / 2, latitude: (bounds.south + bounds.north) / 2, zoom: minZoom)
        let scale = Int(rows["scale"] ?? "").map { min(max($0, 1), 3) } ?? 1
        let name = rows["name"] ?? (path.split(separator: "/").last.map(String.init) ?? path)
        var metadata = TileMetadata(
            name: name, description: rows["description"] ?? "", attribution: rows["attribution"] ?? "",
            bounds: bounds, center: center, minZoom: minZoom, maxZoom: maxZoom, scale: scale,
            options: TileFolderReader.options(fromJSON: rows["heatmap_options"] ?? ""))
        metadata.legends = TileLegend.decode(mbtilesJSON: rows["json"])
        return metadata
    }

    /// The PNG stored for a tile, or `nil`.
    public func tileData(z: Int, x: Int, y: Int) throws(TileArchiveError) -> [UInt8]? {
        let tile = TileCoordinate(zoom: z, x: x, y: y)
        guard tile.isValid else { return nil }
        return try connection.withLock { (connection) throws(TileArchiveError) -> [UInt8]? in
            connection.select.bind([.integer(z), .integer(x), .integer(tile.tmsRow)])
            defer { connection.select.bind([]) }
            return try connection.select.step() ? connection.select.blob(0) : nil
        }
    }
}
