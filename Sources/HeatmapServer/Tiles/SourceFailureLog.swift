import HeatmapKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a server tells about a layer whose source (a database) fails: HTTP clients get a plain
/// sentence with no detail (no host, port, user, table, SQL or driver message), and the
/// detail goes to the server's log once per failure episode: at a layer's first failure, and
/// again only after a tile of it was drawn since (a line then says it answers again). Under
/// load a database that is down writes two lines, not one a request.
public final class SourceFailureLog: Sendable {
    /// What a client is told when the source failed.
    public static let unavailableMessage = "the database is unavailable; retry later"
    /// What a client is told when the source took longer than its timeout.
    public static let timedOutMessage = "the database took too long to answer; retry later"

    /// The layers in a failure episode, with the requests failed in it.
    private let failing = Mutex<[String: Int]>([:])
    /// Whether any layer is in an episode (lets a drawn tile skip the lock).
    private let anyFailing = Atomic(false)

    /// An empty log: no layer failing.
    public init() {}

    /// Writes `line` and a newline to standard error (the default of
    /// ``ServerOptions/sourceFailureLog``); a failed write is ignored.
    public static let standardError: @Sendable (String) -> Void = { line in
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// The client's answer to `error` of layer `layer` when it is a source's failure or
    /// timeout (`nil` for any other error), with its detail written to `write` if this is the
    /// layer's first failure since a tile of it was drawn.
    public func publicMessage(
        for error: HeatmapError, layer: String, write: @Sendable (String) -> Void
    ) -> String? {
        let message: String
        switch error {
        case .sourceFailed: message = Self.unavailableMessage
        case .sourceTimedOut: message = Self.timedOutMessage
        default: return nil
        }
        let first = failing.withLock { failing in
            defer { failing[layer, default: 0] += 1 }
            anyFailing.store(true, ordering: .releasing)
            return failing[layer] == nil
        }
        if first {
            write(
                "heatmap: layer \(layer): \(error.description); its new tiles are answered 503 (\"\(message)\") "
                    + "until the source answers again")
        }
        return message
    }

    /// Ends layer `layer`'s failure episode, if any, after a tile of it was drawn, and says so
    /// (with the number of requests refused) to `write`.
    public func drawn(layer: String, write: @Sendable (String) -> Void) {
        guard anyFailing.load(ordering: .acquiring) else { return }
        let refused: Int? = failing.withLock { failing in
            let refused = failing.removeValue(forKey: layer)
            if failing.isEmpty { anyFailing.store(false, ordering: .releasing) }
            return refused
        }
        if let refused {
            write("heatmap: layer \(layer): the source answers again (\(refused) requests were refused meanwhile)")
        }
    }
}
