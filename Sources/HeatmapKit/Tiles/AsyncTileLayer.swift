/// A layer that answers later, as Google's `GMSTileLayer.requestTileForX:y:zoom:receiver:`:
/// write ``TileLayer/tile(_:)``; the synchronous request waits for it, at most
/// ``synchronousTimeout`` seconds.
public protocol AsyncTileLayer: TileLayer {
    /// The longest a synchronous request waits for the asynchronous one before it answers
    /// ``TileResult/notAvailableYet`` (and cancels it). Default 10 seconds.
    var synchronousTimeout: Double { get }
}

extension AsyncTileLayer {
    /// 10 seconds.
    public var synchronousTimeout: Double { 10 }

    /// Waits for ``TileLayer/tile(_:)``, run on dispatch threads, at most ``synchronousTimeout``
    /// seconds, blocking the caller; from a task, `await tile(_:)` instead.
    public func tileFor(_ tile: TileRequest) throws -> TileResult {
        try waitForTile(timeout: synchronousTimeout) { try await self.tile(tile) }
    }
}
