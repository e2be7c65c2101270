import Dispatch
import Synchronization

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

    /// Waits for ``TileLayer/tile(_:)`` on a task, at most ``synchronousTimeout`` seconds. Do not
    /// call it from a task of Swift's cooperative pool (ask with `await tile(_:)` there).
    public func tileFor(_ tile: TileRequest) throws -> TileResult {
        try waitForTile { try await self.tile(tile) }
    }
}

extension TileLayer {
    /// Runs `body` on a task and waits for it at most `timeout` seconds; ``TileResult/notAvailableYet``
    /// (and the task cancelled) when it takes longer.
    func waitForTile(
        timeout: Double = 10, _ body: @escaping @Sendable () async throws -> TileResult
    ) throws -> TileResult {
        let box = Mutex<Result<TileResult, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let result: Result<TileResult, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        let seconds = timeout.isFinite ? min(max(timeout, 0), 86_400) : 10
        guard done.wait(timeout: .now() + seconds) == .success else {
            task.cancel()
            return .notAvailableYet
        }
        return try box.withLock { $0 }?.get() ?? .notAvailableYet
    }
}
