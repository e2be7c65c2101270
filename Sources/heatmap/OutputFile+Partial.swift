import Foundation

/// The temporary file `--output` writes before renaming it over the path: removed if the
/// command is stopped by SIGINT or SIGTERM while it exists, and, if a process was killed
/// outright (SIGKILL) while it existed, removed by the next write to the same path.
enum PartialOutput {
    /// The partial file's path as a C string while it may exist, else `nil`; read by the
    /// signal handler, so it is prepared (allocated) before the handler can run.
    nonisolated(unsafe) static var pending: UnsafeMutablePointer<CChar>? = nil
    /// The handlers in place before ``begin(_:)``, restored by ``end()``.
    nonisolated(unsafe) static var previous: [Int32: SignalHandler?] = [:]

    /// The signals that remove the partial file before the command dies of them.
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// The calling thread's signal mask before ``begin(_:)``, restored by ``end()``.
    nonisolated(unsafe) static var previousMask = sigset_t()

    /// Records `path` as the partial file and installs the handlers that remove it; the
    /// signals are unblocked meanwhile (a process spawned from a thread that blocks them, as
    /// Dispatch's do, would otherwise never see them).
    static func begin(_ path: String) {
        let prepared = strdup(path)
        pending = prepared
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, &previousMask)
        for number in signals {
            let old = signal(number) { number in
                // Async-signal-safe only: unlink, then die of the signal as before.
                if let path = PartialOutput.pending { unlink(path) }
                signal(number, SIG_DFL)
                raise(number)
            }
            previous[number] = old
            // A signal the command was started ignoring (nohup, a background job) stays ignored.
            if let old, unsafeBitCast(old, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            }
        }
    }

    /// The tests' seam: with `HEATMAP_TEST_HOLD_PARTIAL=SECONDS` (at most 60) in the
    /// environment, waits that long with the partial file written, before the rename, so
    /// that a test can signal the command while the file exists.
    static func holdForTest() {
        guard let text = ProcessInfo.processInfo.environment["HEATMAP_TEST_HOLD_PARTIAL"],
            let seconds = Double(text), seconds > 0
        else { return }
        Thread.sleep(forTimeInterval: min(seconds, 60))
    }

    /// Restores the previous handlers and forgets the partial file (renamed or removed).
    static func end() {
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        for number in signals {
            if let old = previous[number] { signal(number, old) }
        }
        let prepared = pending
        pending = nil
        free(prepared)
    }

    /// Removes `FILE.partial-PID` files beside `path` whose process no longer runs: what a
    /// `tile` or `image` killed with SIGKILL while writing left.
    static func removeStale(beside path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".partial-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit),
                let pid = Int32(digits), pid > 0, pid != getpid()
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + name) }
        }
    }
}

extension Character {
    /// Whether this is one of 0-9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
