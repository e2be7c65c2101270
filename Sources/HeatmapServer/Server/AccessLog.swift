import Dispatch
import Foundation
import Synchronization

/// A request log in the common log format (`host ident authuser [date] "request" status bytes`),
/// written off the I/O threads: they append lines to a buffer, a thread of the log's own writes
/// it out every half second or when 64 KiB wait. Only the request line is logged (no header, so
/// no `Authorization`), with the values of query parameters that look like secrets (`token`,
/// `key`, `password`, `secret`, `signature`, `auth` in the name) replaced by `REDACTED`.
package final class AccessLog: Sendable {
    /// The file, or `-` for standard output.
    package let path: String
    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    private struct State {
        var fd: Int32
        var pending: [UInt8] = []
        var dropped = 0
        var closing = false
        var second = -1
        var date = ""
    }

    /// Lines waiting beyond this are counted and reported in the log, not kept.
    static let bufferLimit = 8 << 20

    /// Opens `path` for appending (created 0644 if missing), or standard output for `-`, and
    /// starts the writer.
    ///
    /// - Throws: ``AccessLogError`` naming the file when it cannot be opened.
    package init(path: String) throws(AccessLogError) {
        self.path = path
        state = Mutex(State(fd: try Self.open(path)))
        let thread = Thread { [self] in writeLoop() }
        thread.name = "heatmap-access-log"
        thread.start()
    }

    private static func open(_ path: String) throws(AccessLogError) -> Int32 {
        if path == "-" { return STDOUT_FILENO }
        let fd = Posix.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode: 0o644)
        guard fd >= 0 else { throw AccessLogError(path: path, reason: String(cString: strerror(errno))) }
        return fd
    }

    /// Logs one request: the peer's address, the request line (`-` when none could be parsed),
    /// the status and the body bytes sent.
    package func log(peer: String, requestLine: String, status: Int, bytes: Int) {
        let now = time(nil)
        state.withLock { state in
            guard !state.closing else { return }
            let second = Int(now)
            if second != state.second {
                state.second = second
                state.date = Self.format(now)
            }
            let size = bytes > 0 ? String(bytes) : "-"
            let line = "\(peer) - - [\(state.date)] \"\(requestLine)\" \(status) \(size)\n"
            if state.pending.count > Self.bufferLimit {
                state.dropped += 1
            } else {
                state.pending.append(contentsOf: line.utf8)
            }
            if state.pending.count >= 64 << 10 { wake.signal() }
        }
    }

    /// Writes what waits and opens the file again (after logrotate moved it away); on failure
    /// the old file stays in use.
    ///
    /// - Throws: ``AccessLogError`` naming the file.
    package func reopen() throws(AccessLogError) {
        guard path != "-" else { return }
        let fd = try Self.open(path)
        let old = state.withLock { state in
            Self.write(&state)
            defer { state.fd = fd }
            return state.fd
        }
        Posix.close(old)
    }

    /// Writes what waits and stops the writer; later lines are not logged.
    package func close() {
        let first = state.withLock { state in
            defer { state.closing = true }
            return !state.closing
        }
        guard first else { return }
        wake.signal()
        stopped.wait()
    }

    private func writeLoop() {
        while true {
            _ = wake.wait(timeout: .now() + 0.5)
            let done = state.withLock { state in
                Self.write(&state)
                return state.closing
            }
            if done { break }
        }
        state.withLock { state in
            if state.fd != STDOUT_FILENO { Posix.close(state.fd) }
        }
        stopped.signal()
    }

    /// Writes the pending lines (under the lock, so a reopen never splits them).
    private static func write(_ state: inout State) {
        if state.dropped > 0 {
            state.pending.append(
                contentsOf: "heatmap: \(state.dropped) access log lines not written (the log fell behind)\n".utf8)
            state.dropped = 0
        }
        var offset = 0
        state.pending.withUnsafeBytes { raw in
            while offset < raw.count, let base = raw.baseAddress {
                let n = Posix.write(state.fd, base + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break  // disk full or closed: these lines are lost, the next ones tried again
                }
            }
        }
        state.pending.removeAll(keepingCapacity: state.pending.capacity <= 1 << 20)
    }

    /// `10/Oct/2000:13:55:36 +0000`.
    static func format(_ seconds: time_t) -> String {
        var clock = seconds
        var parts = tm()
        gmtime_r(&clock, &parts)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let month = months[Int(max(0, min(11, parts.tm_mon)))]
        return "\(two(parts.tm_mday))/\(month)/\(parts.tm_year + 1900):\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    /// The request line as logged: method, target (secret-looking query values `REDACTED`,
    /// `"` as `\x22`) and version.
    package static func requestLine(_ request: HTTPRequest) -> String {
        var target = request.target
        if let mark = target.firstIndex(of: "?") {
            let query = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { pair -> String in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = parts[0].lowercased()
                    let secret = ["token", "key", "password", "secret", "signature", "auth"].contains {
                        name.contains($0)
                    }
                    return secret && parts.count > 1 ? "\(parts[0])=REDACTED" : String(pair)
                }
            target = String(target[..<mark]) + "?" + query.joined(separator: "&")
        }
        target = target.replacingOccurrences(of: "\"", with: "\\x22")
        return "\(request.method) \(target) HTTP/1.\(request.minorVersion)"
    }
}

/// The access log's file could not be opened.
package struct AccessLogError: Error, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// Why (the system's message).
    package var reason: String

    /// `access log /var/log/x.log: Permission denied`.
    package var description: String { "access log \(path): \(reason)" }
}
