import Dispatch

/// A layer that computes its tiles on the caller's thread, as Google's `GMSSyncTileLayer`:
/// write ``TileLayer/tileFor(_:)``; the asynchronous request runs it off the caller's thread.
public protocol SyncTileLayer: TileLayer {}

extension SyncTileLayer {
    /// ``TileLayer/tileFor(_:)`` on a global dispatch queue; ``TileResult/notAvailableYet`` if the
    /// task is cancelled first.
    public func tile(_ tile: TileRequest) async throws -> TileResult {
        if Task.isCancelled { return .notAvailableYet }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<TileResult, any Error>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { try self.tileFor(tile) })
            }
        }
        return try result.get()
    }
}
