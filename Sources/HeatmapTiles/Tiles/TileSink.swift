/// Where rendered tiles go: an MBTiles file, a PMTiles file or a folder.
///
/// A sink is used from one thread at a time (the renderer's writer thread). Tiles arrive in
/// any order, each once; empty tiles are never written. ``finish()`` makes the archive whole;
/// ``stop()`` ends an interrupted render, keeping what can be kept as a valid archive.
package protocol TileSink: AnyObject {
    /// The tiles stored already, when resuming (empty for a new archive).
    func storedTiles() throws(TileArchiveError) -> Set<TileCoordinate>

    /// Stores one tile's PNG.
    func write(_ tile: TileCoordinate, data: [UInt8]) throws(TileArchiveError)

    /// Makes the tiles written so far durable, where the format can (a transaction's commit).
    func checkpoint() throws(TileArchiveError)

    /// Completes the archive after the last tile.
    func finish() throws(TileArchiveError)

    /// Ends an interrupted or failed render: keeps the finished tiles where the format can
    /// resume (MBTiles, folders) and removes what would look whole but is not (PMTiles).
    /// Returns whether the finished tiles were kept.
    func stop() -> Bool

    /// The bytes of tile data written by this sink so far.
    var bytesWritten: Int { get }

    /// The tiles written by this sink that are durable (committed, renamed into place), when the
    /// format tells; `nil` when it does not (then every tile written counts as kept).
    var committedTiles: Int? { get }
}

extension TileSink {
    /// Not told: every tile written counts as kept.
    package var committedTiles: Int? { nil }
}

/// How to treat an output that exists already.
public enum OutputMode: Sendable, Hashable {
    /// Refuse an existing output.
    case create
    /// Replace an existing output.
    case overwrite
    /// Continue an existing output rendered with the same options, skipping its tiles.
    case resume
}
