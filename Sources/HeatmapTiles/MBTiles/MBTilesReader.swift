import Foundation
import HeatmapKit
import Synchronization

/// Reads the tiles of any MBTiles file (a `tiles` table or view, TMS rows), from any thread.
///
/// A hostile or damaged file cannot hang or flood the server: every query has a budget
/// (``statementSeconds``, 2 s; an endless recursive `tiles` or `metadata` view is stopped and
/// is an error), a stored tile over 16 MiB is an error read no further than its length, and a
/// `tile_data` that is not a PNG blob (NULL, an integer, text, other bytes) is an error naming
/// the tile, never served as `image/png`.
package final class MBTilesReader: TileArchiveReader {
    private struct Connection: @unchecked Sendable {  // only used under the mutex
        let database: SQLiteDatabase
        let select: SQLiteStatement
    }

    private let connection: Mutex<Connection>
    /// The metadata table, with defaults for rows it lacks.
    package let metadata: TileMetadata
    /// The file.
    package let path: String
    /// The longest one query (a tile's, the metadata's) may run, in seconds.
    package let statementSeconds: Double

    /// Opens a file read-only.
    ///
    /// - Throws: ``TileArchiveError`` when it is missing, not SQLite or has no `tiles`.
    package convenience init(path: String) throws(TileArchiveError) {
        try self.init(path: path, statementSeconds: 2)
    }

    /// Opens a file read-only, each query stopped after `statementSeconds`.
    package init(path: String, statementSeconds: Double) throws(TileArchiveError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw TileArchiveError(.invalid, path: path, "does not exist")
        }
        self.path = path
        self.statementSeconds = statementSeconds
        let database = try SQLiteDatabase(path: path, readOnly: true)
        database.limitStatements(to: statementSeconds)
        let select: SQLiteStatement
        var rows: [String: String] = [:]
        do {
            // The type and length come without reading the blob (SQLite reads neither for
            // typeof() and length()); the bytes only for a blob within the limit.
            select = try database.prepare(
                """
                SELECT typeof(tile_data), length(tile_data),
                  CASE WHEN typeof(tile_data) = 'blob' AND length(tile_data) <= ?4 THEN tile_data END
                FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3
                """)
            // At most 10,000 rows of at most 4 MiB each: a hostile view cannot fill memory at start.
            let query = try database.prepare(
                "SELECT CAST(name AS TEXT), CAST(substr(value, 1, 4194304) AS TEXT) FROM metadata LIMIT 10000")
            query.bind([])
            while try query.step() { rows[query.text(0)] = query.text(1) }
        } catch {
            if error.reason.contains("budget") { throw error }
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
    ///
    /// - Throws: ``TileArchiveError`` when the query runs over its budget, or the stored value is
    ///   not a PNG blob or is over 16 MiB.
    package func tileData(z: Int, x: Int, y: Int) throws(TileArchiveError) -> [UInt8]? {
        let tile = TileCoordinate(zoom: z, x: x, y: y)
        guard tile.isValid else { return nil }
        let limit = StoredTile.maximumBytes
        let bytes = try connection.withLock { (connection) throws(TileArchiveError) -> [UInt8]? in
            let select = connection.select
            select.bind([.integer(z), .integer(x), .integer(tile.tmsRow), .integer(limit)])
            defer { select.bind([]) }
            guard try select.step() else { return nil }
            let type = select.text(0)
            guard type == "blob" else {
                throw TileArchiveError(.invalid, path: path, "tile \(z)/\(x)/\(y) is stored as \(type), not a PNG blob")
            }
            let length = select.integer(1)
            guard length <= limit else { throw StoredTile.tooLarge(z: z, x: x, y: y, bytes: length, path: path) }
            return select.blob(2)
        }
        return try bytes.map { bytes throws(TileArchiveError) in
            try StoredTile.checked(bytes, z: z, x: x, y: y, path: path)
        }
    }
}
