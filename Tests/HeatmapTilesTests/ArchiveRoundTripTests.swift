import Foundation
import HeatmapKit
import Testing

@testable import HeatmapTiles

/// Every writer's tiles come back from the matching reader, byte for byte, and absent tiles are absent.
@Suite struct ArchiveRoundTripTests {
    /// A PNG's signature and IHDR chunk (256 × 256 RGBA): readers answer only bytes framed so.
    static let pngHead: [UInt8] =
        [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0]
        + [0x5c, 0x72, 0xa8, 0x66]
    /// The IEND chunk every whole PNG ends with.
    static let pngEnd: [UInt8] = [0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130]

    /// `payload` framed as a PNG (head, payload, IEND), as the readers check it.
    static func framed(_ payload: [UInt8]) -> [UInt8] { pngHead + payload + pngEnd }

    /// Tiles with some repeated contents, as dense high zooms have.
    static func tiles(count: Int) -> [(TileCoordinate, [UInt8])] {
        (0..<count).map { i in
            let tile = TileCoordinate(zoom: 10, x: 300 + i % 97, y: 400 + i / 97)
            let content =
                i % 5 == 0
                ? [UInt8](repeating: 7, count: 40) : (0..<(20 + i % 50)).map { UInt8(truncatingIfNeeded: i &+ $0) }
            return (tile, framed(content))
        }
    }

    static func write(_ sink: any TileSink, _ tiles: [(TileCoordinate, [UInt8])]) throws {
        for (tile, bytes) in tiles { try sink.write(tile, data: bytes) }
        try sink.finish()
    }

    static func check(_ reader: any TileArchiveReader, _ tiles: [(TileCoordinate, [UInt8])]) throws {
        for (tile, bytes) in tiles { #expect(try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y) == bytes) }
        #expect(try reader.tileData(z: 10, x: 0, y: 0) == nil)
        #expect(try reader.tileData(z: 3, x: 9, y: 0) == nil)
        #expect(reader.metadata.name == "test")
        #expect(reader.metadata.attribution == "nobody")
        #expect(reader.metadata.minZoom == 0 && reader.metadata.maxZoom == 8)
        #expect(reader.metadata.options == ["radius": "20"])
    }

    @Test("MBTiles: TMS rows, identical tiles stored once")
    func mbtiles() throws {
        let path = Fixtures.temporaryPath("t.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tiles = Self.tiles(count: 1500)
        let writer = try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create)
        try Self.write(writer, tiles)
        #expect(writer.sharedTiles == 299)
        try Self.check(try MBTilesReader(path: path), tiles)
    }

    @Test("PMTiles: with leaf directories when the root would not fit in 16 KiB")
    func pmtiles() throws {
        for count in [1, 300, 40_000] {
            let path = Fixtures.temporaryPath("t.pmtiles")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let tiles = (0..<count).map { i in
                (
                    TileCoordinate(zoom: 12, x: (i * 7) % 4096, y: (i * 13) / 4096 + 2 * i % 50),
                    Self.framed(Array("tile \(i)".utf8))
                )
            }
            var unique: [TileCoordinate: [UInt8]] = [:]
            for (tile, bytes) in tiles { unique[tile] = unique[tile] ?? bytes }
            let distinct = unique.map { ($0.key, $0.value) }
            try Self.write(try PMTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create), distinct)
            let reader = try PMTilesReader(path: path)
            for (tile, bytes) in distinct { #expect(try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y) == bytes) }
            #expect(!FileManager.default.fileExists(atPath: path + ".tiles.partial"))
        }
        let path = Fixtures.temporaryPath("d.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tiles = Self.tiles(count: 1500)
        try Self.write(try PMTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create), tiles)
        try Self.check(try PMTilesReader(path: path), tiles)
    }

    @Test("a run of identical tiles is one directory entry")
    func runLength() throws {
        let path = Fixtures.temporaryPath("r.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try PMTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create)
        let same = [UInt8](repeating: 1, count: 100)
        for id in UInt64(100)..<UInt64(150) { try writer.write(try #require(PMTilesTileID.tile(id)), data: same) }
        try writer.write(try #require(PMTilesTileID.tile(7)), data: [2, 3])
        try writer.finish()
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let header = try #require(PMTilesHeader(bytes))
        #expect(header.addressedTiles == 51 && header.tileEntries == 2 && header.tileContents == 2)
        #expect(header.clustered && header.dataLength == 102)
        let root = try #require(
            Gzip.decompress(Array(bytes[Int(header.rootOffset)..<Int(header.rootOffset + header.rootLength)])))
        let entries = try #require(PMTilesDirectory.parse(root))
        #expect(entries.map(\.runLength) == [1, 50])
        #expect(entries.map(\.offset) == [0, 2])  // tile data in tile id order
    }

    @Test("a folder: z/x/y.png, @2x at scale 2, and metadata.json")
    func folder() throws {
        let path = Fixtures.temporaryPath("dir")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tiles = Self.tiles(count: 300)
        try Self.write(try TileFolderWriter(path: path, metadata: Fixtures.metadata(), mode: .create), tiles)
        try Self.check(try TileFolderReader(path: path), tiles)
        #expect(FileManager.default.fileExists(atPath: path + "/10/300/400.png"))
        let retina = Fixtures.temporaryPath("dir2x")
        defer { try? FileManager.default.removeItem(atPath: retina) }
        try Self.write(try TileFolderWriter(path: retina, metadata: Fixtures.metadata(scale: 2), mode: .create), tiles)
        #expect(FileManager.default.fileExists(atPath: retina + "/10/300/400@2x.png"))
        #expect(try TileFolderReader(path: retina).tileData(z: 10, x: 300, y: 400) == tiles[0].1)
    }

    @Test("an existing output is refused unless replaced or resumed")
    func refusals() throws {
        let path = Fixtures.temporaryPath("x.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.write(
            try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create), Self.tiles(count: 3))
        #expect(throws: TileArchiveError.self) {
            try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create)
        }
        let other = Fixtures.metadata(options: ["radius": "30"])
        let error = #expect(throws: TileArchiveError.self) {
            try MBTilesWriter(path: path, metadata: other, mode: .resume)
        }
        #expect(error?.kind == .cannotResume)
        let resumed = try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .resume)
        #expect(try resumed.storedTiles().count == 3)
        let replaced = try MBTilesWriter(path: path, metadata: other, mode: .overwrite)
        #expect(try replaced.storedTiles().isEmpty)
        #expect(throws: TileArchiveError.self) {
            try PMTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .resume)
        }
        let missing = #expect(throws: TileArchiveError.self) {
            try MBTilesWriter(path: "/nonexistent-folder/x.mbtiles", metadata: Fixtures.metadata(), mode: .create)
        }
        #expect(missing?.kind == .unwritable)
        #expect(throws: TileArchiveError.self) {
            try PMTilesWriter(path: "/nonexistent-folder/x.pmtiles", metadata: Fixtures.metadata(), mode: .create)
        }
    }

    @Test("a full disk is an error; the MBTiles file keeps every committed tile and resumes")
    func fullDisk() throws {
        let path = Fixtures.temporaryPath("full.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create, pageLimit: 40)
        let big = (0..<2000).map { i in
            (
                TileCoordinate(zoom: 12, x: i, y: 0),
                Self.framed((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 31 + i * 7) })
            )
        }
        var failure: TileArchiveError?
        var index = 0
        while index < big.count {
            do {
                try writer.write(big[index].0, data: big[index].1)
                if index % 10 == 9 { try writer.checkpoint() }
            } catch {
                failure = error
                break
            }
            index += 1
        }
        #expect(failure?.kind == .full, "\(String(describing: failure))")
        #expect(writer.stop())
        let reader = try MBTilesReader(path: path)
        let kept = index / 10 * 10
        #expect(kept > 0)
        for (tile, bytes) in big[0..<kept] { #expect(try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y) == bytes) }
        #expect(try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .resume).storedTiles().count == kept)
    }

    @Test("MBTiles of other tools (a plain tiles table) read too; files that are no archive are named errors")
    func foreign() throws {
        let path = Fixtures.temporaryPath("plain.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let hex = Self.pngHead.map { String(format: "%02x", $0) }.joined()
        let end = Self.pngEnd.map { String(format: "%02x", $0) }.joined()
        let database = try SQLiteDatabase(path: path, readOnly: false, create: true)
        try database.execute(
            """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO metadata VALUES ('name', 'plain'), ('format', 'png'), ('minzoom', '2'), ('maxzoom', '3');
            INSERT INTO tiles VALUES (3, 5, 1, x'\(hex)0102\(end)'), (3, 9, 99, x'\(hex)05\(end)');
            """)
        let reader = try MBTilesReader(path: path)
        #expect(try reader.tileData(z: 3, x: 5, y: 6) == Self.framed([1, 2]))  // TMS row 1 is XYZ row 8 - 1 - 1
        #expect(try reader.tileData(z: 3, x: 5, y: 1) == nil)
        #expect(reader.metadata.name == "plain" && reader.metadata.minZoom == 2 && reader.metadata.maxZoom == 3)
        let resumed = #expect(throws: TileArchiveError.self) {
            try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .resume)
        }
        #expect(resumed?.kind == .cannotResume)

        let junk = Fixtures.temporaryPath("junk")
        defer {
            for suffix in [".mbtiles", ".pmtiles"] { try? FileManager.default.removeItem(atPath: junk + suffix) }
        }
        for suffix in [".mbtiles", ".pmtiles"] {
            _ = FileManager.default.createFile(atPath: junk + suffix, contents: Data(repeating: 0x41, count: 300))
            let error = #expect(throws: TileArchiveError.self) { try TileArchive.open(junk + suffix) }
            #expect(error?.kind == .invalid, "\(String(describing: error))")
        }
        #expect(throws: TileArchiveError.self) { try TileArchive.open("/nonexistent.pmtiles") }
    }
}
