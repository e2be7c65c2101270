import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLTileLayer {
    /// A `file://` tile: missing is no tile; unreadable, oversized or not a PNG of the layer's
    /// size is an error naming the file.
    func readFile(_ url: URL) throws(TileLayerError) -> TileResult {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .noTile }
        guard !isDirectory.boolValue else { throw .unreadableFile(layer: name, path: path, reason: "it is a folder") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableFile(layer: name, path: path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumTileBytes + 1) ?? Data()
        } catch {
            throw .unreadableFile(layer: name, path: path, reason: "\(error.localizedDescription)")
        }
        guard data.count <= maximumTileBytes else {
            throw .unreadableFile(layer: name, path: path, reason: "larger than \(maximumTileBytes) bytes")
        }
        let bytes = [UInt8](data)
        guard let header = PNGHeader(bytes) else {
            throw .invalidImage(layer: name, reason: "\(path) is not a PNG")
        }
        guard PNGHeader.isComplete(bytes) else {
            throw .invalidImage(layer: name, reason: "\(path) is cut short (no IEND chunk at its end)")
        }
        try checkSize(header)
        return .image(bytes)
    }

    /// An `http(s)://` tile, within ``timeout`` seconds all told: a slot of its host, then the
    /// request.
    func fetch(_ url: URL) async throws(TileLayerError) -> TileResult {
        let host = "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port.map(String.init) ?? "")"
        let start = DispatchTime.now()
        guard await slots.acquire(host, timeout: timeout) else { return .notAvailableYet }
        defer { slots.release(host) }
        let spent = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let remaining = timeout - spent
        guard remaining > 0, !Task.isCancelled else { return .notAvailableYet }
        guard let (body, status) = await download(url, timeout: remaining) else { return .notAvailableYet }
        switch status {
        case 204, 404:
            return .noTile
        case 200..<300:
            guard let header = PNGHeader(body), PNGHeader.isComplete(body) else { return .notAvailableYet }
            try checkSize(header)
            return .image(body)
        default:
            return .notAvailableYet
        }
    }

    /// The body and status of a GET, or `nil` on any error; cancelled after `timeout` seconds
    /// whatever the session does, and when the task is cancelled.
    private func download(_ url: URL, timeout: Double) async -> (body: [UInt8], status: Int)? {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        request.setValue("image/png", forHTTPHeaderField: "Accept")
        let task = TaskBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<([UInt8], Int)?, Never>) in
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

    private func checkSize(_ header: PNGHeader) throws(TileLayerError) {
        guard header.width == tileSize, header.height == tileSize else {
            throw .wrongImageSize(layer: name, expected: tileSize, width: header.width, height: header.height)
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
    private let continuation: Mutex<CheckedContinuation<([UInt8], Int)?, Never>?>

    init(_ continuation: CheckedContinuation<([UInt8], Int)?, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ value: ([UInt8], Int)?) {
        continuation.withLock { pending in
            defer { pending = nil }
            return pending
        }?.resume(returning: value)
    }
}
