import Dispatch
import Synchronization

extension TileLayer {
    /// Runs `body` on a task and waits for it at most `timeout` seconds; ``TileResult/notAvailableYet``
    /// (and the task cancelled) when it takes longer. The task runs on dispatch threads
    /// (``DispatchTaskExecutor``), not on the few threads of Swift's cooperative pool, so a
    /// synchronous request answers even while blocking work holds every one of those.
    func waitForTile(
        timeout: Double = 10, _ body: @escaping @Sendable () async throws -> TileResult
    ) throws -> TileResult {
        let box = Mutex<Result<TileResult, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: DispatchTaskExecutor.shared) {
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

/// Runs tasks' jobs on the global dispatch queue rather than Swift's cooperative pool, so that
/// tiles are answered even while blocking work (a synchronous layer, a test) holds every thread
/// of the pool: `Task(executorPreference: DispatchTaskExecutor.shared) { … }`.
package final class DispatchTaskExecutor: TaskExecutor {
    /// The one executor.
    public static let shared = DispatchTaskExecutor()

    /// Runs `job` on the global dispatch queue.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
