import Foundation

/// Writes a PMTiles v3 file: tiles go to a temporary data file as they come (identical tiles
/// stored once); ``finish()`` sorts them by tile id, writes header, root directory, metadata,
/// leaf directories and the tile data in Hilbert order (clustered) to `path.partial`, and
/// renames it to `path`. Until then no file at `path` is made or changed, so an interrupted
/// or failed render never leaves a PMTiles file that looks whole.
///
/// Memory: about 16 bytes a tile and 80 a distinct tile, for the directory, until the end.
package final class PMTilesWriter: TileSink {
    /// The root directory must end within the first 16 KiB of the file, header included.
    static let rootLimit = 16_384 - PMTilesHeader.size

    /// The file.
    package let path: String
    let metadata: TileMetadata
    private let data: POSIXFile
    private let dataPath: String
    private var entries: [(id: UInt64, content: Int)] = []
    private var contents: [(offset: Int, length: Int)] = []
    private var byHash: [UInt64: [Int]] = [:]
    private var dataSize = 0
    /// The bytes of distinct tiles written.
    package var bytesWritten: Int { dataSize }

    /// Prepares the temporary data file beside `path`.
    ///
    /// - Throws: ``TileArchiveError``: `.exists` under `.create`, `.cannotResume` under
    ///   `.resume` for an existing file (PMTiles files are written whole), `.unwritable`.
    package init(path: String, metadata: TileMetadata, mode: OutputMode) throws(TileArchiveError) {
        self.path = path
        self.metadata = metadata
        try TileArchiveError.requireFolder(of: path)
        if FileManager.default.fileExists(atPath: path) {
            switch mode {
            case .create:
                throw TileArchiveError(.exists, path: path, "exists already; --force replaces it")
            case .resume:
                throw TileArchiveError(
                    .cannotResume, path: path,
                    "a PMTiles file is written whole at the end, so it cannot be resumed; --force renders it again")
            case .overwrite: break  // replaced by the rename at the end
            }
        }
        dataPath = path + ".tiles.partial"
        data = try POSIXFile(path: dataPath, writing: true)
    }

    /// None: PMTiles files do not resume.
    package func storedTiles() throws(TileArchiveError) -> Set<TileCoordinate> { [] }

    /// Appends a tile's bytes to the data file, or points at identical bytes stored before.
    package func write(_ tile: TileCoordinate, data bytes: [UInt8]) throws(TileArchiveError) {
        let hash = ContentHash.of(bytes)
        for candidate in byHash[hash] ?? [] where contents[candidate].length == bytes.count {
            if try data.read(count: bytes.count, at: contents[candidate].offset) == bytes {
                entries.append((PMTilesTileID.id(tile), candidate))
                return
            }
        }
        try data.write(bytes)
        byHash[hash, default: []].append(contents.count)
        entries.append((PMTilesTileID.id(tile), contents.count))
        contents.append((dataSize, bytes.count))
        dataSize += bytes.count
    }

    /// Nothing to make durable before the end.
    package func checkpoint() throws(TileArchiveError) {}

    /// Writes the file in its final order and renames it into place.
    package func finish() throws(TileArchiveError) {
        entries.sort { $0.id < $1.id }
        // Tile data in the order of the first tile id that uses it: clustered.
        var finalOffset = [Int](repeating: -1, count: contents.count)
        var order: [Int] = []
        order.reserveCapacity(contents.count)
        var next = 0
        var directory: [PMTilesEntry] = []
        for entry in entries {
            if finalOffset[entry.content] < 0 {
                finalOffset[entry.content] = next
                next += contents[entry.content].length
                order.append(entry.content)
            }
            let offset = UInt64(finalOffset[entry.content])
            if let last = directory.last, last.tileID + last.runLength == entry.id, last.offset == offset {
                directory[directory.count - 1].runLength += 1
            } else {
                directory.append(
                    PMTilesEntry(
                        tileID: entry.id, offset: offset, length: UInt64(contents[entry.content].length), runLength: 1))
            }
        }
        let (root, leaves) = try Self.directories(directory, path: path)
        guard let meta = Gzip.compress(Array(metadataJSON().utf8)) else {
            throw TileArchiveError(.io, path: path, "cannot compress the metadata")
        }
        var header = PMTilesHeader()
        header.tileType = metadata.imageFormat.pmtilesType
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(meta.count)
        header.leafOffset = header.metadataOffset + header.metadataLength
        header.leafLength = UInt64(leaves.count)
        header.dataOffset = header.leafOffset + header.leafLength
        header.dataLength = UInt64(next)
        header.addressedTiles = UInt64(entries.count)
        header.tileEntries = UInt64(directory.count)
        header.tileContents = UInt64(contents.count)
        header.minZoom = UInt8(clamping: metadata.minZoom)
        header.maxZoom = UInt8(clamping: metadata.maxZoom)
        let b = metadata.bounds
        header.minLongitudeE7 = PMTilesHeader.e7(b.west)
        header.minLatitudeE7 = PMTilesHeader.e7(b.south)
        header.maxLongitudeE7 = PMTilesHeader.e7(b.east)
        header.maxLatitudeE7 = PMTilesHeader.e7(b.north)
        header.centerZoom = UInt8(clamping: metadata.center.zoom)
        header.centerLongitudeE7 = PMTilesHeader.e7(metadata.center.longitude)
        header.centerLatitudeE7 = PMTilesHeader.e7(metadata.center.latitude)

        let partial = path + ".partial"
        do {
            let out = try POSIXFile(path: partial, writing: true)
            try out.write(header.bytes + root + meta + leaves)
            var buffer: [UInt8] = []
            for content in order {
                buffer += try data.read(count: contents[content].length, at: contents[content].offset)
                if buffer.count >= 1 << 22 {
                    try out.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try out.write(buffer)
            try out.sync()
        } catch {
            unlink(partial)
            unlink(dataPath)
            throw error
        }
        try POSIXFile.rename(partial, to: path)
        unlink(dataPath)
    }

    /// The root directory and the leaves: all entries in the root if it fits, else leaves of
    /// 4096 entries (doubled until the root fits), as the reference implementation does.
    static func directories(_ entries: [PMTilesEntry], path: String) throws(TileArchiveError) -> ([UInt8], [UInt8]) {
        let failed = TileArchiveError(.io, path: path, "cannot compress the directory")
        guard let whole = Gzip.compress(PMTilesDirectory.serialize(entries)) else { throw failed }
        if whole.count < rootLimit { return (whole, []) }
        var leafSize = 4096
        while true {
            var rootEntries: [PMTilesEntry] = []
            var leaves: [UInt8] = []
            var start = 0
            while start < entries.count {
                let end = min(start + leafSize, entries.count)
                guard let leaf = Gzip.compress(PMTilesDirectory.serialize(Array(entries[start..<end]))) else {
                    throw failed
                }
                rootEntries.append(
                    PMTilesEntry(
                        tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt64(leaf.count),
                        runLength: 0))
                leaves += leaf
                start = end
            }
            guard let root = Gzip.compress(PMTilesDirectory.serialize(rootEntries)) else { throw failed }
            if root.count < rootLimit { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// The JSON metadata: name, description, attribution, type, format, the tile size and options.
    func metadataJSON() -> String {
        let q = TileMetadata.quoted
        return """
            {"name":\(q(metadata.name)),"description":\(q(metadata.description)),"attribution":\(q(metadata.attribution)),\
            "type":"overlay","format":"\(metadata.imageFormat.rawValue)","scale":\(metadata.scale),"tilesize":\(metadata.tileSize),\
            "heatmap_options":\(metadata.optionsJSON)\(metadata.legendsJSON.map { ",\"heatmap_legends\":" + $0 } ?? "")}
            """
    }

    /// Removes the temporary files: an interrupted PMTiles render keeps nothing.
    package func stop() -> Bool {
        unlink(dataPath)
        unlink(path + ".partial")
        return false
    }
}
