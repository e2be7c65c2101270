import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapTiles

/// Archives made by an attacker or a careless user (issue 23): folders with links out, FIFOs and
/// files that are no image; PMTiles with huge directories; MBTiles with endless views and
/// tiles that are huge or not blobs. Each is a named error, never a hang, a flood of memory or
/// another file's bytes served as a tile.
@Suite struct HostileArchiveTests {
    static let png: [UInt8] = (try? Upstream.solidPNG(side: 256, red: 1, green: 2, blue: 3, alpha: 255)) ?? []

    // MARK: folders

    @Test("a folder serves only regular PNG files inside it; links out, FIFOs, text and huge files are errors")
    func folder() throws {
        let folder = try TemporaryFolder("hostile-folder")
        defer { folder.remove() }
        let outside = try TemporaryFolder("hostile-outside")
        defer { outside.remove() }
        try outside.write(Self.png, to: "0.png")
        try folder.write(Self.png, to: "tiles/1/0/0.png")
        let tiles = folder.file("tiles")
        let manager = FileManager.default
        try manager.createDirectory(atPath: tiles + "/0/0", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: tiles + "/0/0/0.png", withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: tiles + "/1/1", withDestinationPath: outside.path)
        try manager.createSymbolicLink(atPath: tiles + "/1/0/1.png", withDestinationPath: tiles + "/1/0/0.png")
        try manager.createDirectory(atPath: tiles + "/2/0", withIntermediateDirectories: true)
        #expect(mkfifo(tiles + "/2/0/0.png", 0o644) == 0)
        try folder.write(Array("<html>not a tile</html>".utf8), to: "tiles/2/1/1.png")
        let huge = try POSIXFile(path: tiles + "/2/1/2.png", writing: true)
        #expect(ftruncate(huge.descriptor, off_t(StoredTile.maximumBytes + 1)) == 0)
        try manager.createDirectory(atPath: tiles + "/2/3", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: tiles + "/2/3/3.png", withDestinationPath: "/dev/zero")

        let reader = try TileFolderReader(path: tiles)
        #expect(try reader.tileData(z: 1, x: 0, y: 0) == Self.png)
        #expect(try reader.tileData(z: 1, x: 0, y: 1) == Self.png, "a link inside to a tile inside is followed")
        #expect(try reader.tileData(z: 3, x: 0, y: 0) == nil)
        for (z, x, y, words) in [
            (0, 0, 0, "leads out"), (1, 1, 0, "leads out"), (2, 0, 0, "not a regular file"),
            (2, 1, 1, "not a PNG"), (2, 1, 2, "larger than 16 MiB"), (2, 3, 3, "leads out"),
        ] {
            let error = #expect(throws: TileArchiveError.self) { try reader.tileData(z: z, x: x, y: y) }
            #expect(error?.kind == .invalid)
            #expect(error?.reason.contains(words) == true, "\(z)/\(x)/\(y): \(String(describing: error))")
        }
    }

    // MARK: PMTiles

    /// A PMTiles file of PNG tiles: a root directory, leaves and data as given, gzip directories.
    static func pmtiles(_ path: String, root: [PMTilesEntry], leaves: [[UInt8]], data: [UInt8]) throws {
        var header = PMTilesHeader()
        let rootBytes = try #require(Gzip.compress(PMTilesDirectory.serialize(root)))
        let metadata = try #require(Gzip.compress(Array("{}".utf8)))
        let leafBytes = leaves.flatMap { $0 }
        header.rootLength = UInt64(rootBytes.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadata.count)
        header.leafOffset = header.metadataOffset + header.metadataLength
        header.leafLength = UInt64(leafBytes.count)
        header.dataOffset = header.leafOffset + header.leafLength
        header.dataLength = UInt64(data.count)
        header.maxZoom = 14
        let bytes = header.bytes + rootBytes + metadata + leafBytes + data
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    /// A leaf of `count` one-tile entries from `first`, all pointing at the data's one PNG.
    static func leaf(first: UInt64, count: Int) throws -> [UInt8] {
        let entries = (0..<count).map {
            PMTilesEntry(tileID: first + UInt64($0), offset: 0, length: UInt64(png.count), runLength: 1)
        }
        return try #require(Gzip.compress(PMTilesDirectory.serialize(entries)))
    }

    @Test("PMTiles directories are bounded: over 262,144 entries or 8 MiB inflated is an error")
    func pmtilesBounds() throws {
        let folder = try TemporaryFolder("hostile-pmtiles")
        defer { folder.remove() }
        let path = folder.file("big.pmtiles")
        let first = PMTilesTileID.id(TileCoordinate(zoom: 10, x: 0, y: 0))
        // Leaf 1: 300,000 entries (1.2 MB stored before gzip); leaf 2: 9 MiB of zeros once inflated.
        let many = try Self.leaf(first: first, count: 300_000)
        let zeros = try #require(Gzip.compress([UInt8](repeating: 0, count: 9 << 20)))
        try Self.pmtiles(
            path,
            root: [
                PMTilesEntry(tileID: first, offset: 0, length: UInt64(many.count), runLength: 0),
                PMTilesEntry(
                    tileID: first + 400_000, offset: UInt64(many.count), length: UInt64(zeros.count), runLength: 0),
            ], leaves: [many, zeros], data: Self.png)
        let reader = try PMTilesReader(path: path)
        let entries = #expect(throws: TileArchiveError.self) { try reader.tileData(z: 10, x: 0, y: 0) }
        #expect(entries?.reason.contains("262,144") == true, "\(String(describing: entries))")
        let tile = try #require(PMTilesTileID.tile(first + 400_001))
        let inflated = #expect(throws: TileArchiveError.self) {
            try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y)
        }
        #expect(inflated?.reason.contains("8 MiB") == true, "\(String(describing: inflated))")
        #expect(reader.leafCacheBytesHeld == 0)
    }

    @Test("PMTiles leaves are cached within their bytes, least recently used out")
    func pmtilesLeafCache() throws {
        let folder = try TemporaryFolder("hostile-pmtiles-cache")
        defer { folder.remove() }
        let path = folder.file("leaves.pmtiles")
        let first = PMTilesTileID.id(TileCoordinate(zoom: 10, x: 0, y: 0))
        var leaves: [[UInt8]] = []
        var root: [PMTilesEntry] = []
        var offset: UInt64 = 0
        for i in 0..<8 {
            // 100,000 entries each: 3.2 MB parsed, 25.6 MB for all eight.
            let start = first + UInt64(i) * 100_000
            let leaf = try Self.leaf(first: start, count: 100_000)
            root.append(PMTilesEntry(tileID: start, offset: offset, length: UInt64(leaf.count), runLength: 0))
            offset += UInt64(leaf.count)
            leaves.append(leaf)
        }
        try Self.pmtiles(path, root: root, leaves: leaves, data: Self.png)
        let reader = try PMTilesReader(path: path, leafCacheBytes: 8 << 20)
        for i in 0..<8 {
            let tile = try #require(PMTilesTileID.tile(first + UInt64(i) * 100_000 + 5))
            #expect(try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y) == Self.png)
            #expect(reader.leafCacheBytesHeld <= 8 << 20, "after leaf \(i): \(reader.leafCacheBytesHeld) bytes")
        }
        #expect(reader.leafCacheBytesHeld > 0)
    }

    @Test("a PMTiles tile that is not a PNG or is over 16 MiB is an error")
    func pmtilesTiles() throws {
        let folder = try TemporaryFolder("hostile-pmtiles-tiles")
        defer { folder.remove() }
        let path = folder.file("text.pmtiles")
        let text = Array("root:x:0:0:root:/root:/bin/sh".utf8)
        try Self.pmtiles(
            path,
            root: [
                PMTilesEntry(tileID: 0, offset: 0, length: UInt64(text.count), runLength: 1),
                PMTilesEntry(tileID: 1, offset: 0, length: UInt64(StoredTile.maximumBytes + 1), runLength: 1),
            ], leaves: [], data: text + [UInt8](repeating: 0, count: StoredTile.maximumBytes + 1))
        let reader = try PMTilesReader(path: path)
        let error = #expect(throws: TileArchiveError.self) { try reader.tileData(z: 0, x: 0, y: 0) }
        #expect(error?.reason.contains("not a PNG") == true, "\(String(describing: error))")
        let huge = #expect(throws: TileArchiveError.self) { try reader.tileData(z: 1, x: 0, y: 0) }
        #expect(huge?.reason.contains("16 MiB") == true, "\(String(describing: huge))")
    }

    // MARK: MBTiles

    /// An MBTiles file of `sql` (its tables or views).
    static func mbtiles(_ path: String, _ sql: String) throws {
        let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
        try database.execute(sql)
    }

    static let endless = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n
        """

    @Test("MBTiles: an endless tiles view is stopped by the query budget, an endless metadata view too")
    func mbtilesEndless() throws {
        let folder = try TemporaryFolder("hostile-mbtiles")
        defer { folder.remove() }
        let tiles = folder.file("tiles.mbtiles")
        try Self.mbtiles(
            tiles,
            """
            CREATE TABLE metadata (name TEXT, value TEXT);
            INSERT INTO metadata VALUES ('format', 'png');
            CREATE VIEW tiles AS SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row,
              (\(Self.endless)) AS tile_data;
            """)
        let reader = try MBTilesReader(path: tiles, statementSeconds: 0.3)
        let error = #expect(throws: TileArchiveError.self) { try reader.tileData(z: 0, x: 0, y: 0) }
        #expect(error?.reason.contains("budget") == true, "\(String(describing: error))")

        let metadata = folder.file("metadata.mbtiles")
        try Self.mbtiles(
            metadata,
            """
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE VIEW metadata AS SELECT 'name' AS name, (\(Self.endless)) AS value;
            """)
        let opening = #expect(throws: TileArchiveError.self) {
            try MBTilesReader(path: metadata, statementSeconds: 0.3)
        }
        #expect(opening?.reason.contains("budget") == true, "\(String(describing: opening))")
    }

    @Test("MBTiles: NULL, integer, text and non-PNG tile_data are errors; a 900 MB zeroblob is refused unread")
    func mbtilesValues() throws {
        let folder = try TemporaryFolder("hostile-mbtiles-values")
        defer { folder.remove() }
        let path = folder.file("values.mbtiles")
        let hex = Self.png.map { String(format: "%02x", $0) }.joined()
        try Self.mbtiles(
            path,
            """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE stored (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO stored VALUES (1, 0, 1, NULL), (1, 1, 1, 42), (1, 0, 0, 'text'), (1, 1, 0, x'0102'),
              (2, 0, 3, x'\(hex)');
            CREATE VIEW tiles AS SELECT * FROM stored
              UNION ALL SELECT 3, 0, 7, zeroblob(900000000);
            """)
        let reader = try MBTilesReader(path: path)
        #expect(try reader.tileData(z: 2, x: 0, y: 0) == Self.png)
        for (x, y, words) in [(0, 0, "as null"), (1, 0, "as integer"), (0, 1, "as text"), (1, 1, "not a PNG")] {
            let error = #expect(throws: TileArchiveError.self) { try reader.tileData(z: 1, x: x, y: y) }
            #expect(error?.reason.contains(words) == true, "1/\(x)/\(y): \(String(describing: error))")
        }
        let huge = #expect(throws: TileArchiveError.self) { try reader.tileData(z: 3, x: 0, y: 0) }
        #expect(huge?.reason.contains("900000000 bytes") == true, "\(String(describing: huge))")
    }
}

/// A render that fills the disk says how many tiles the output really kept (issue 23, item 10).
@Suite struct RenderFullDiskTests {
    @Test("after a full disk, render's message counts the tiles committed, which the MBTiles file holds")
    func fullDiskCount() throws {
        let folder = try TemporaryFolder("render-full")
        defer { folder.remove() }
        let index = try PointIndex(points: Fixtures.policeStations)
        let settings = HeatmapSettings.default
        func renderer() throws -> PyramidRenderer {
            let layer = HeatmapTileLayer(index: index, settings: settings, cacheBytes: 0)
            let walk = try PyramidWalk(index: index, zooms: 0...12, scale: 1, radius: settings.radius)
            return PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: 2)
        }
        // The whole render's size in pages, then a disk (SQLite's page limit) of two thirds of it.
        let whole = folder.file("whole.mbtiles")
        let summary = try renderer().render(
            into: try MBTilesWriter(path: whole, metadata: Fixtures.metadata(), mode: .create),
            progress: RenderProgress())
        try #require(summary.written > 2 * MBTilesWriter.batchSize, "\(summary.written) tiles: too few to test")
        let pages = try #require(try FileManager.default.attributesOfItem(atPath: whole)[.size] as? Int) / 4096
        let path = folder.file("full.mbtiles")
        let writer = try MBTilesWriter(
            path: path, metadata: Fixtures.metadata(), mode: .create, pageLimit: pages * 2 / 3)
        let failure = #expect(throws: RenderFailure.self) {
            try renderer().render(into: writer, progress: RenderProgress())
        }
        let stored = try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .resume).storedTiles().count
        #expect(stored > 0)
        #expect(failure?.summary.keptTiles == stored, "written \(failure?.summary.written ?? 0), stored \(stored)")
        #expect(failure?.description.contains("the \(stored) tiles committed are kept") == true)
    }
}
