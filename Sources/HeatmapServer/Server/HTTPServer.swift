import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on POSIX sockets: one event-loop thread for all connections
/// (keep-alive, pipelining, limits, timeouts), responses made by an ``HTTPResponder``
/// (which may hand slow work to other threads).
///
/// ```swift
/// let server = try HTTPServer(host: "127.0.0.1", port: 8080, responder: responder)
/// server.start()
/// server.waitUntilStopped()
/// ```
public final class HTTPServer: Sendable {
    /// The port bound (the one picked when 0 was asked for).
    public let port: Int
    /// The address bound.
    public let host: String
    /// Connection counters.
    public let stats: ServerStats
    private let loop: EventLoop
    private let running = DispatchGroup()

    /// Binds and listens; ``start()`` begins answering.
    ///
    /// - Throws: ``SocketError`` when the address cannot be bound (in use, not local, …).
    public init(
        host: String = "127.0.0.1", port: Int = 8080, limits: HTTPLimits = HTTPLimits(),
        responder: any HTTPResponder, stats: ServerStats = ServerStats()
    ) throws(SocketError) {
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
        let (fd, bound) = try Socket.listen(host: host, port: port)
        do {
            loop = try EventLoop(listener: fd, limits: limits, responder: responder, stats: stats)
        } catch {
            close(fd)
            throw error
        }
        self.host = host
        self.port = bound
        self.stats = stats
    }

    /// Lifts the soft limit of open descriptors to the hard one, for many connections.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Starts the event loop on its own thread.
    public func start() {
        running.enter()
        let thread = Thread { [loop, running] in
            loop.run()
            running.leave()
        }
        thread.name = "heatmap-http"
        thread.start()
    }

    /// Stops accepting, lets responses under way finish within `grace` seconds, closes
    /// idle connections and ends the loop. Returns at once; see ``waitUntilStopped()``.
    public func shutdown(grace: Double = 10) {
        loop.post(.shutdown(grace: grace))
    }

    /// Blocks until the loop has ended.
    public func waitUntilStopped() {
        running.wait()
    }

    /// Waits for the loop to end without blocking a thread of the concurrency pool.
    public func stopped() async {
        await withCheckedContinuation { continuation in
            running.notify(queue: .global()) { continuation.resume() }
        }
    }
}
