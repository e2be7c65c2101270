#if canImport(CCurl)
    import CCurl
    import Foundation
    import HeatmapKit
    import Synchronization

    /// ``TileFetching`` with libcurl, for the `heatmap` command and server on Linux: one thread
    /// drives one multi handle, so every transfer starts, ends and is cancelled on that thread
    /// and no callback can race a cancellation (FoundationNetworking's can, and stops the
    /// process).
    ///
    /// Each GET follows no redirect (`CURLOPT_FOLLOWLOCATION` off: a 3xx is the answer), speaks
    /// only http and https, ends within its timeout (`CURLOPT_TIMEOUT_MS`), and stops reading at
    /// the body limit: a `Content-Length` beyond it is refused before the body
    /// (`CURLOPT_MAXFILESIZE_LARGE`), and the write callback ends the transfer the moment the
    /// body would grow past it, closing the connection; nothing more is read.
    ///
    /// - Complexity: one thread and one handle per fetcher; a transfer costs its body, at most
    ///   the limit.
    package final class CurlTileFetcher: TileFetching, @unchecked Sendable {  // `multi`: loop thread only
        /// The fetcher the command's URL layers share (transfers to one host reuse connections).
        package static let shared = CurlTileFetcher()

        private struct Queue {
            var starts: [CurlTransfer] = []
            var cancels: [CurlTransfer] = []
            var next = 0
        }

        private let multi: UnsafeMutableRawPointer
        private let queue = Mutex(Queue())
        private let certificates: String?
        private let userAgent: String
        /// The transfers running, by id (loop thread only).
        private var running: [Int: CurlTransfer] = [:]

        /// A fetcher with its own thread. `certificates`: a PEM file of the authorities trusted for
        /// https instead of the system's (for tests with a loopback TLS upstream).
        package init(certificates: String? = nil, userAgent: String = "HeatmapKit (heatmap serve)") {
            ccurl_global_init()
            // curl_multi_init fails only when out of memory.
            guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
            self.multi = multi
            self.certificates = certificates
            self.userAgent = userAgent
            let thread = Thread { [self] in loop() }
            thread.name = "heatmap-curl"
            thread.start()
        }

        package func get(_ url: URL, timeout: Double, maximumBytes: Int) async -> TileResponse? {
            guard timeout > 0, !Task.isCancelled else { return nil }
            let id = queue.withLock { queue -> Int in
                defer { queue.next &+= 1 }
                return queue.next
            }
            let transfer = CurlTransfer(id: id, url: url.absoluteString, timeout: timeout, limit: maximumBytes)
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<TileResponse?, Never>) in
                    transfer.continuation = continuation
                    queue.withLock { $0.starts.append(transfer) }
                    curl_multi_wakeup(multi)
                }
            } onCancel: {
                transfer.cancelled.store(true, ordering: .releasing)
                queue.withLock { $0.cancels.append(transfer) }
                curl_multi_wakeup(multi)
            }
        }

        /// Starts what was asked, cancels what was cancelled, moves the transfers and answers the
        /// finished ones, then waits for a socket, a wake-up or a second.
        private func loop() {
            while true {
                let (starts, cancels) = queue.withLock { queue in
                    defer {
                        queue.starts = []
                        queue.cancels = []
                    }
                    return (queue.starts, queue.cancels)
                }
                for transfer in starts { start(transfer) }
                for transfer in cancels { finish(transfer.id, nil) }
                var active: Int32 = 0
                curl_multi_perform(multi, &active)
                var left: Int32 = 0
                while let message = curl_multi_info_read(multi, &left) {
                    guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                        let context = ccurl_private(easy)
                    else { continue }
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                    let result = ccurl_message_result(message)
                    let status = ccurl_response_code(easy)
                    let answer =
                        result == CURLE_OK && status > 0 && !transfer.tooLarge
                        ? TileResponse(status: status, body: transfer.body) : nil
                    finish(transfer.id, answer)
                }
                curl_multi_poll(multi, nil, 0, 1000, nil)
            }
        }

        /// Sets a transfer's options and adds it; one whose handle cannot be made is answered `nil`.
        private func start(_ transfer: CurlTransfer) {
            // Cancelled before it started: the cancellation found nothing running to end.
            guard !transfer.cancelled.load(ordering: .acquiring), let easy = curl_easy_init() else {
                return transfer.answer(nil)
            }
            transfer.easy = easy
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            let milliseconds = max(1, Int(min(transfer.timeout, 3600) * 1000))
            ccurl_setopt_string(easy, CURLOPT_URL, transfer.url)
            ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
            ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
            ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
            ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            ccurl_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.limit))
            ccurl_setopt_string(easy, CURLOPT_USERAGENT, userAgent)
            ccurl_setopt_list(easy, CURLOPT_HTTPHEADER, transfer.headers)
            ccurl_setopt_pointer(easy, CURLOPT_PRIVATE, context)
            ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
            ccurl_setopt_write(easy, curlWrite)
            if let certificates { ccurl_setopt_string(easy, CURLOPT_CAINFO, certificates) }
            guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
                curl_easy_cleanup(easy)
                transfer.easy = nil
                return transfer.answer(nil)
            }
            running[transfer.id] = transfer
        }

        /// Ends a running transfer (removing and freeing its handle) and answers it once.
        private func finish(_ id: Int, _ answer: TileResponse?) {
            guard let transfer = running.removeValue(forKey: id) else { return }
            if let easy = transfer.easy {
                curl_multi_remove_handle(multi, easy)
                curl_easy_cleanup(easy)
                transfer.easy = nil
            }
            transfer.answer(answer)
        }
    }

    /// One GET: its options, its body so far, and the answer it owes. Made by the caller, then
    /// touched by the loop thread only (but `cancelled`).
    final class CurlTransfer: @unchecked Sendable {
        let id: Int
        let url: String
        let timeout: Double
        let limit: Int
        let headers: UnsafeMutablePointer<curl_slist>?
        let cancelled = Atomic<Bool>(false)
        var continuation: CheckedContinuation<TileResponse?, Never>?
        var easy: UnsafeMutableRawPointer?
        var body: [UInt8] = []
        var tooLarge = false

        init(id: Int, url: String, timeout: Double, limit: Int) {
            self.id = id
            self.url = url
            self.timeout = timeout
            self.limit = limit
            headers = curl_slist_append(nil, "Accept: image/png")
        }

        deinit { curl_slist_free_all(headers) }

        /// Resumes the caller, once.
        func answer(_ response: TileResponse?) {
            body = []
            continuation?.resume(returning: response)
            continuation = nil
        }
    }

    /// Appends a chunk of body, or ends the transfer (returning less than was given) when it would
    /// pass the limit.
    private func curlWrite(
        _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = size * count
        guard transfer.body.count + bytes <= transfer.limit else {
            transfer.tooLarge = true
            transfer.body = []
            return 0
        }
        if let data, bytes > 0 {
            data.withMemoryRebound(to: UInt8.self, capacity: bytes) {
                transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: bytes))
            }
        }
        return bytes
    }
#endif
