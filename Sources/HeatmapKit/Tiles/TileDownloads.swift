import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession delegate of a ``URLSessionTileFetcher``: refuses every redirect (the 3xx is
/// the answer), collects each response's body, cancelling any that announces or grows beyond
/// `maximumBytes` (so a hostile upstream cannot fill memory), and answers each download exactly
/// once: when its task completes, or at once with `nil` when the body grows too large.
final class TileDownloads: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // state under `lock`
    private struct Pending {
        var body = Data()
        var status = 0
        var tooLarge = false
        var finish: @Sendable (TileResponse?) -> Void
    }

    let maximumBytes: Int
    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    /// Starts `request` on `session`, calling `finish` once with the body and status, or `nil` on
    /// any error, cancellation or oversized body. Returns the task, to cancel it.
    func start(
        _ request: URLRequest, on session: URLSession, finish: @escaping @Sendable (TileResponse?) -> Void
    ) -> URLSessionDataTask {
        let task = session.dataTask(with: request)
        lock.lock()
        pending[task.taskIdentifier] = Pending(finish: finish)
        lock.unlock()
        task.resume()
        return task
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let tooLarge = response.expectedContentLength > Int64(maximumBytes)
        update(dataTask) {
            $0.status = status
            $0.tooLarge = tooLarge
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var cancel = false
        update(dataTask) { entry in
            guard !entry.tooLarge else { return }
            if entry.body.count + data.count > maximumBytes {
                entry.tooLarge = true
                entry.body = Data()
                cancel = true
            } else {
                entry.body.append(data)
            }
        }
        guard cancel else { return }
        // Answer now: FoundationNetworking may go on reading a fast body after cancel().
        finishEarly(dataTask)
        dataTask.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let entry = pending.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let entry else { return }
        guard error == nil, !entry.tooLarge, entry.status != 0 else { return entry.finish(nil) }
        entry.finish(TileResponse(status: entry.status, body: [UInt8](entry.body)))
    }

    /// Follows no redirect: the 3xx response completes the task (an upstream cannot point the
    /// server at another host, and a redirect chain cannot outlast the deadline).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Answers `nil` for `task` now; its completion later finds nothing to answer.
    private func finishEarly(_ task: URLSessionTask) {
        lock.lock()
        let entry = pending.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        entry?.finish(nil)
    }

    private func update(_ task: URLSessionTask, _ change: (inout Pending) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard var entry = pending[task.taskIdentifier] else { return }
        change(&entry)
        pending[task.taskIdentifier] = entry
    }
}
