import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``TileFetching`` with URLSession: an ephemeral session per layer, its delegate
/// (``TileDownloads``) refusing every redirect and cutting bodies at the limit.
///
/// Sound on Apple platforms. On Linux, FoundationNetworking stops the process when a task is
/// cancelled (or times out) while a redirect waits for its delegate, and may go on reading a
/// body after `cancel()`: the `heatmap` command uses libcurl there (`CurlTileFetcher`); this
/// backend only serves the library used on its own.
package final class URLSessionTileFetcher: TileFetching {
    let session: URLSession
    let downloads: TileDownloads

    /// A session whose requests time out after `timeout` seconds, at most
    /// `maximumConnectionsPerHost` connections to one host, bodies cut at `maximumBytes`.
    package init(timeout: Double, maximumConnectionsPerHost: Int, maximumBytes: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        downloads = TileDownloads(maximumBytes: maximumBytes)
        session = URLSession(configuration: configuration, delegate: downloads, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// The status and body of a GET, or `nil` on any error; cancelled after `timeout` seconds
    /// whatever the session does, and when the task is cancelled. The body limit is the
    /// session's (`maximumBytes` of ``init(timeout:maximumConnectionsPerHost:maximumBytes:)``).
    package func get(_ url: URL, timeout: Double, maximumBytes: Int) async -> TileResponse? {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        request.setValue("image/png", forHTTPHeaderField: "Accept")
        let task = TaskBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<TileResponse?, Never>) in
                // The first of the download's end, the deadline and cancellation answers;
                // FoundationNetworking may keep reading a fast body after cancel(), so no wait
                // depends on it stopping.
                let answer = Once(continuation)
                task.onCancel { answer.resume(nil) }
                let dataTask = downloads.start(request, on: session) { answer.resume($0) }
                task.set(dataTask)
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak dataTask] in
                    answer.resume(nil)
                    dataTask?.cancel()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// The data task of a fetch, for cancelling it from a task's cancellation handler.
private final class TaskBox: @unchecked Sendable {  // state under `lock`
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false
    private var handlers: [@Sendable () -> Void] = []

    func set(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { task.cancel() }
    }

    /// Runs `handler` on cancellation (at once if cancelled already).
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        let now = cancelled
        if !now { handlers.append(handler) }
        lock.unlock()
        if now { handler() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        let handlers = self.handlers
        self.handlers = []
        lock.unlock()
        for handler in handlers { handler() }
        task?.cancel()
    }
}

/// A continuation resumed by whichever caller comes first; later ones do nothing.
private final class Once: Sendable {
    private let continuation: Mutex<CheckedContinuation<TileResponse?, Never>?>

    init(_ continuation: CheckedContinuation<TileResponse?, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ value: TileResponse?) {
        continuation.withLock { pending in
            defer { pending = nil }
            return pending
        }?.resume(returning: value)
    }
}
