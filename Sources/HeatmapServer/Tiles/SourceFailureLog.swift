import HeatmapKit
import Synchronization

/// What a server tells about a layer whose source (a database) fails: HTTP clients get a plain
/// sentence with no detail (no host, port, user, table, SQL or driver message), and the
/// detail goes to the server's log once per failure episode: at a layer's first failure, and
/// again only after a tile of it was drawn since (a line then says it answers again), and at
/// most once in ``quietPeriod`` a layer. Under load a database that is down writes two lines,
/// not one a request.
package final class SourceFailureLog: Sendable {
    /// What a client is told when the source failed.
    package static let unavailableMessage = "the database is unavailable; retry later"
    /// What a client is told when the source took longer than its timeout.
    package static let timedOutMessage = "the database took too long to answer; retry later"

    /// A layer's failures: whether it is in an episode, the requests refused in it, whether
    /// its start was logged, and when a start was last logged.
    private struct Episode {
        var failing = false
        var refused = 0
        var logged = false
        var lastLogged: ContinuousClock.Instant?
    }

    /// The layers that failed, by name.
    private let episodes = Mutex<[String: Episode]>([:])
    /// Whether any layer is in an episode (lets a drawn tile skip the lock).
    private let anyFailing = Atomic(false)
    /// A new episode of a layer is logged only this long after its last logged one, so a
    /// source that flaps (or tiles drawn without it between failures) cannot flood the log.
    static let quietPeriod = Duration.seconds(30)

    /// An empty log: no layer failing.
    package init() {}

    /// Writes `line` and a newline to standard error (the default of
    /// ``ServerOptions/sourceFailureLog``); a failed write is ignored.
    package static let standardError: @Sendable (String) -> Void = { line in
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
    package func publicMessage(
        for error: HeatmapError, layer: String, write: @Sendable (String) -> Void
    ) -> String? {
        let message: String
        switch error {
        case .sourceFailed: message = Self.unavailableMessage
        case .sourceTimedOut: message = Self.timedOutMessage
        default: return nil
        }
        let now = ContinuousClock.now
        let first = episodes.withLock { episodes in
            var episode = episodes[layer] ?? Episode()
            defer {
                episode.refused += 1
                episodes[layer] = episode
            }
            anyFailing.store(true, ordering: .releasing)
            guard !episode.failing else { return false }
            episode.failing = true
            episode.refused = 0
            episode.logged = episode.lastLogged.map { now - $0 >= Self.quietPeriod } ?? true
            if episode.logged { episode.lastLogged = now }
            return episode.logged
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
    package func drawn(layer: String, write: @Sendable (String) -> Void) {
        guard anyFailing.load(ordering: .acquiring) else { return }
        let refused: Int? = episodes.withLock { episodes in
            guard var episode = episodes[layer], episode.failing else { return nil }
            episode.failing = false
            episodes[layer] = episode
            if !episodes.values.contains(where: \.failing) { anyFailing.store(false, ordering: .releasing) }
            return episode.logged ? episode.refused : nil
        }
        if let refused {
            write("heatmap: layer \(layer): the source answers again (\(refused) requests were refused meanwhile)")
        }
    }
}
