import Foundation
import HeatmapKit

/// Reads tiles from a PMTiles v3 file (directories gzip-compressed or not), from any thread.
///
/// Bounded for hostile files: a directory over 262,144 entries or 8 MiB (stored or inflated)
/// is an error, parsed leaves are cached within ``leafCacheBytes`` (least recently used out),
/// a tile over 16 MiB or not a PNG is an error naming it.
package final class PMTilesReader: TileArchiveReader {
    private struct File: @unchecked Sendable {  // pread only, which is safe from any thread
        let file: POSIXFile
    }

    private let file: File
    private let header: PMTilesHeader
    private let root: [PMTilesEntry]
    private let leaves: TileCache<UInt64, PMTilesLeaf>
    /// The most memory parsed leaf directories may keep, in bytes (default 32 MiB).
    package var leafCacheBytes: Int { leaves.capacityBytes }
    /// The memory the cached leaves hold now, in bytes.
    var leafCacheBytesHeld: Int { leaves.bytes }
    /// The header's area and zooms with the JSON metadata's name, scale and options.
    package let metadata: TileMetadata
    /// The file.
    package let path: String

    /// Opens a file and reads its header, root directory and metadata.
    ///
    /// - Throws: ``TileArchiveError`` when it is missing, not PMTiles v3 or not of PNG tiles.
    package convenience init(path: String) throws(TileArchiveError) {
        try self.init(path: path, leafCacheBytes: 32 << 20)
    }

    /// Opens a file, parsed leaf directories cached within `leafCacheBytes`.
    package init(path: String, leafCacheBytes: Int) throws(TileArchiveError) {
        self.path = path
        leaves = TileCache(capacityBytes: leafCacheBytes)
        let opened = try POSIXFile(path: path, writing: false)
        file = File(file: opened)
        guard let header = PMTilesHeader(try opened.read(count: PMTilesHeader.size, at: 0)) else {
            throw TileArchiveError(.invalid, path: path, "is not a PMTiles version 3 file")
        }
        guard header.tileType == PMTilesHeader.typePNG, header.tileCompression <= PMTilesHeader.compressionNone
        else {
            throw TileArchiveError(.invalid, path: path, "does not hold uncompressed PNG tiles")
        }
        self.header = header
        let size = UInt64(opened.size())
        for (offset, length) in [
            (header.rootOffset, header.rootLength), (header.metadataOffset, header.metadataLength),
            (header.leafOffset, header.leafLength), (header.dataOffset, header.dataLength),
        ] where offset > size || length > size - offset {
            throw TileArchiveError(.invalid, path: path, "is shorter than its header says")
        }
        let rootBytes = try Self.section(
            opened, header, header.rootOffset, header.rootLength, limit: PMTilesDirectory.maximumBytes, path: path)
        guard let root = PMTilesDirectory.parse(rootBytes) else {
            throw TileArchiveError(.invalid, path: path, "has a damaged root directory (or one over 262,144 entries)")
        }
        self.root = root
        let json = try Self.section(
            opened, header, header.metadataOffset, header.metadataLength, limit: 64 << 20, path: path)
        metadata = Self.metadata(header: header, json: json, path: path)
    }

    /// A section of at most `limit` bytes, stored and inflated.
    private static func section(
        _ file: POSIXFile, _ header: PMTilesHeader, _ offset: UInt64, _ length: UInt64, limit: Int, path: String
    )
        throws(TileArchiveError) -> [UInt8]
    {
        guard length <= UInt64(limit) else {
            throw TileArchiveError(.invalid, path: path, "has a directory or metadata over \(limit >> 20) MiB")
        }
        let raw = try file.read(count: Int(length), at: Int(offset))
        switch header.internalCompression {
        case PMTilesHeader.compressionNone, 0: return raw
        case PMTilesHeader.compressionGzip:
            guard let inflated = Gzip.decompress(raw, limit: limit) else {
                throw TileArchiveError(
                    .invalid, path: path,
                    "has a damaged gzip directory or metadata (or one inflating beyond \(limit >> 20) MiB)")
            }
            return inflated
        default:
            throw TileArchiveError(
                .invalid, path: path, "uses internal compression \(header.internalCompression); none and gzip are read")
        }
    }

    static func metadata(header: PMTilesHeader, json: [UInt8], path: String) -> TileMetadata {
        let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] ?? [:]
        let degrees = { (value: Int32) in Double(value) / 10_000_000 }
        let options = (object["heatmap_options"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        let scale = (object["scale"] as? Int).map { min(max($0, 1), 3) } ?? 1
        let name = object["name"] as? String ?? (path.split(separator: "/").last.map(String.init) ?? path)
        var metadata = TileMetadata(
            name: name, description: object["description"] as? String ?? "",
            attribution: object["attribution"] as? String ?? "",
            bounds: PointBounds(
                south: degrees(header.minLatitudeE7), west: degrees(header.minLongitudeE7),
                north: degrees(header.maxLatitudeE7), east: degrees(header.maxLongitudeE7)),
            center: TileCenter(
                longitude: degrees(header.centerLongitudeE7), latitude: degrees(header.centerLatitudeE7),
                zoom: Int(min(header.centerZoom, 22))),
            minZoom: Int(min(header.minZoom, 22)), maxZoom: Int(min(header.maxZoom, 22)), scale: scale,
            options: options)
        metadata.legends = TileLegend.decode(object["heatmap_legends"])
        return metadata
    }

    /// The PNG stored for a tile, or `nil`.
    package func tileData(z: Int, x: Int, y: Int) throws(TileArchiveError) -> [UInt8]? {
        let tile = TileCoordinate(zoom: z, x: x, y: y)
        guard tile.isValid else { return nil }
        let id = PMTilesTileID.id(tile)
        var directory = root
        for _ in 0..<4 {
            guard let entry = PMTilesDirectory.find(id, in: directory) else { return nil }
            if entry.runLength > 0 {
                guard entry.length <= header.dataLength, entry.offset <= header.dataLength - entry.length else {
                    throw TileArchiveError(.invalid, path: path, "has a tile beyond its data")
                }
                guard entry.length <= UInt64(StoredTile.maximumBytes) else {
                    throw StoredTile.tooLarge(z: z, x: x, y: y, bytes: Int(entry.length), path: path)
                }
                let bytes = try file.file.read(count: Int(entry.length), at: Int(header.dataOffset + entry.offset))
                return try StoredTile.checked(bytes, z: z, x: x, y: y, path: path)
            }
            directory = try leaf(entry)
        }
        throw TileArchiveError(.invalid, path: path, "has directories nested more than 3 deep")
    }

    private func leaf(_ entry: PMTilesEntry) throws(TileArchiveError) -> [PMTilesEntry] {
        if let cached = leaves[entry.offset] { return cached.entries }
        guard entry.length <= header.leafLength, entry.offset <= header.leafLength - entry.length else {
            throw TileArchiveError(.invalid, path: path, "has a leaf directory beyond its section")
        }
        let bytes = try Self.section(
            file.file, header, header.leafOffset + entry.offset, entry.length, limit: PMTilesDirectory.maximumBytes,
            path: path)
        guard let parsed = PMTilesDirectory.parse(bytes) else {
            throw TileArchiveError(.invalid, path: path, "has a damaged leaf directory (or one over 262,144 entries)")
        }
        leaves.insert(PMTilesLeaf(entries: parsed), for: entry.offset)
        return parsed
    }
}
