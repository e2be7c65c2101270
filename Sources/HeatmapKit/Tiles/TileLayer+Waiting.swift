import Dispatch
import Synchronization

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
