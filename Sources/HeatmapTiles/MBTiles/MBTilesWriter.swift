import Foundation

/// Writes an MBTiles 1.3 file through SQLite, in transactions of up to ``batchSize`` tiles, so
/// that an interrupted render leaves a valid file with every finished tile (see ``MBTilesSchema``).
package final class MBTilesWriter: TileSink {
    /// The most tiles in one transaction.
    package static let batchSize = 512

    let database: SQLiteDatabase
    let path: String
    private let insertImage: SQLiteStatement
    private let selectImage: SQLiteStatement
    private let insertMap: SQLiteStatement
    private var pending = 0
    /// The tiles of this writer committed so far (a failed commit's are not).
    package private(set) var committedTiles: Int? = 0
    private var inTransaction = false
    private let resuming: Bool
    /// The bytes of tile data stored by this writer (shared images counted once).
    package private(set) var bytesWritten = 0
    /// How many tiles shared an image stored before.
    package private(set) var sharedTiles = 0

    /// Creates (or, with `.resume`, opens) the file and writes the metadata.
    ///
    /// - Parameter pageLimit: SQLite's `max_page_count`, to test a full disk; `nil` for none.
    /// - Throws: ``TileArchiveError`` of kind `.exists` for an existing file under `.create`,
    ///   `.cannotResume` for a file of other options or not made by this writer, `.unwritable`.
    package init(path: String, metadata: TileMetadata, mode: OutputMode, pageLimit: Int? = nil)
        throws(TileArchiveError)
    {
        self.path = path
        try TileArchiveError.requireFolder(of: path)
        let exists = FileManager.default.fileExists(atPath: path)
        if exists && mode == .create {
            throw TileArchiveError(
                .exists, path: path, "exists already; --force replaces it, --resume continues an interrupted render")
        }
        if exists && mode == .overwrite {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        resuming = exists && mode == .resume
        database = try SQLiteDatabase(path: path, readOnly: false, create: true)
        if let pageLimit { try database.execute("PRAGMA max_page_count = \(pageLimit)") }
        if resuming {
            try Self.checkResumable(database, path: path, metadata: metadata)
        } else {
            try database.execute("PRAGMA page_size = 4096; PRAGMA application_id = 0x4d504258;" + MBTilesSchema.create)
        }
        try database.execute("BEGIN")
        let meta = try database.prepare("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")
        for (name, value) in MBTilesSchema.rows(metadata) { try meta.run([.text(name), .text(value)]) }
        try database.execute("COMMIT")
        insertImage = try database.prepare("INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?, ?)")
        selectImage = try database.prepare("SELECT tile_data FROM images WHERE tile_id = ?")
        insertMap = try database.prepare(
            "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
    }

    private static func checkResumable(_ database: SQLiteDatabase, path: String, metadata: TileMetadata)
        throws(TileArchiveError)
    {
        let stored: String
        do {
            let query = try database.prepare("SELECT value FROM metadata WHERE name = 'heatmap_options'")
            query.bind([])
            stored = try query.step() ? query.text(0) : ""
            _ = try database.prepare("SELECT tile_id FROM map LIMIT 1")
        } catch {
            throw TileArchiveError(
                .cannotResume, path: path,
                "was not written by heatmap render, so it cannot be resumed (\(error.reason))")
        }
        guard stored == metadata.optionsJSON else {
            throw TileArchiveError(
                .cannotResume, path: path,
                "was rendered with other options, so it cannot be resumed: it has \(stored), this render \(metadata.optionsJSON); use --force to start again"
            )
        }
    }

    /// The tiles in the file (for resuming), as a set (about 40 bytes a tile).
    package func storedTiles() throws(TileArchiveError) -> Set<TileCoordinate> {
        guard resuming else { return [] }
        let query = try database.prepare("SELECT zoom_level, tile_column, tile_row FROM map")
        query.bind([])
        var tiles = Set<TileCoordinate>()
        while try query.step() {
            let zoom = query.integer(0)
            let row = query.integer(2)
            guard (0...22).contains(zoom), (0..<(1 << zoom)).contains(row) else { continue }  // foreign rows
            tiles.insert(TileCoordinate(zoom: zoom, x: query.integer(1), y: (1 << zoom) - 1 - row))
        }
        return tiles
    }

    /// Stores a tile, sharing the image of an identical one stored before.
    package func write(_ tile: TileCoordinate, data: [UInt8]) throws(TileArchiveError) {
        if !inTransaction {
            try database.execute("BEGIN")
            inTransaction = true
        }
        var identifier = ContentHash.identifier(data)
        var attempt = 0
        while true {
            try insertImage.run([.text(identifier), .blob(data)])
            if sqlite3Changes() > 0 {
                bytesWritten += data.count
                break
            }
            selectImage.bind([.text(identifier)])
            if try selectImage.step(), selectImage.blob(0) == data {
                sharedTiles += 1
                break
            }
            attempt += 1  // two different images with one hash: extremely rare, but never mixed up
            identifier = ContentHash.identifier(data) + "-\(attempt)"
        }
        try insertMap.run([.integer(tile.zoom), .integer(tile.x), .integer(tile.tmsRow), .text(identifier)])
        pending += 1
        if pending >= Self.batchSize { try checkpoint() }
    }

    private func sqlite3Changes() -> Int { database.changes }

    /// Commits the open transaction.
    package func checkpoint() throws(TileArchiveError) {
        guard inTransaction else { return }
        try database.execute("COMMIT")
        inTransaction = false
        committedTiles = (committedTiles ?? 0) + pending
        pending = 0
    }

    /// Commits the last tiles.
    package func finish() throws(TileArchiveError) {
        try checkpoint()
    }

    /// Commits what can be committed (rolls back a transaction that fails, as on a full disk).
    package func stop() -> Bool {
        if inTransaction {
            do {
                try checkpoint()
            } catch {
                try? database.execute("ROLLBACK")
                inTransaction = false
            }
        }
        return true
    }
}
