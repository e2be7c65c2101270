import Dispatch
import Foundation

/// An HTTP/1.1 server on POSIX sockets: an event-loop thread per core (epoll on Linux, `poll(2)`
/// elsewhere or when `HEATMAP_EVENT_LOOP=poll` asks for it), the first
/// accepting and handing connections to each in turn (keep-alive, pipelining, limits,
/// timeouts), responses made by an ``HTTPResponder`` (which may hand slow work to other
/// threads) and written with `writev` from the responder's bytes.
///
/// ```swift
/// let server = try HTTPServer(host: "127.0.0.1", port: 8080, responder: responder)
/// server.start()
/// server.waitUntilStopped()
/// ```
package final class HTTPServer: Sendable {
    /// The port bound (the one picked when 0 was asked for).
    package let port: Int
    /// The address bound.
    package let host: String
    /// Connection counters.
    package let stats: ServerStats
    /// The I/O threads.
    package var threads: Int { loops.count }
    /// The poller behind the event loops.
    package let eventLoop: EventLoopBackend
    private let loops: [EventLoop]
    private let running = DispatchGroup()

    /// Binds and listens; ``start()`` begins answering.
    ///
    /// - Parameters:
    ///   - accessLog: where to log every request in the common log format; `nil` for nowhere.
    ///   - threads: I/O threads (event loops); `nil` for one per core. Renders never run on them.
    ///   - eventLoop: the poller; `nil` for the one `HEATMAP_EVENT_LOOP` names (`epoll` or `poll`),
    ///     else the platform's (``EventLoopBackend/platformDefault``).
    /// - Throws: ``SocketError`` when the address cannot be bound (in use, not local, …), or
    ///   `HEATMAP_EVENT_LOOP` names no backend of this platform.
    package init(
        host: String = "127.0.0.1", port: Int = 8080, limits: HTTPLimits = HTTPLimits(),
        responder: any HTTPResponder, stats: ServerStats = ServerStats(), accessLog: AccessLog? = nil,
        threads: Int? = nil, eventLoop: EventLoopBackend? = nil
    ) throws(SocketError) {
        let backend: EventLoopBackend
        if let eventLoop {
            backend = eventLoop
        } else {
            backend = try EventLoopBackend.chosen(in: ProcessInfo.processInfo.environment)
        }
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
        let count = max(1, min(threads ?? ProcessInfo.processInfo.activeProcessorCount, 64))
        let (fd, bound) = try Socket.listen(host: host, port: port)
        var loops: [EventLoop] = []
        do {
            for i in 0..<count {
                loops.append(
                    try EventLoop(
                        listener: i == 0 ? fd : -1, limits: limits, responder: responder, stats: stats,
                        accessLog: accessLog, backend: backend))
            }
        } catch {
            if loops.isEmpty { Posix.close(fd) }  // else the first loop owns it
            throw error
        }
        loops[0].siblings = Array(loops.dropFirst())
        self.loops = loops
        self.eventLoop = backend
        stats.eventLoop.withLock { $0 = backend }
        self.host = host
        self.port = bound
        self.stats = stats
    }

    /// Lifts the soft limit of open descriptors to the hard one (at most `OPEN_MAX` on macOS),
    /// for many connections.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Posix.descriptorLimit, &limit) == 0 else { return }
        let wanted = Posix.descriptorSoftLimit(hard: limit.rlim_max)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = wanted
        _ = setrlimit(Posix.descriptorLimit, &limit)
    }

    /// Starts each event loop on its own thread.
    package func start() {
        for (i, loop) in loops.enumerated() {
            running.enter()
            let thread = Thread { [loop, running] in
                loop.run()
                running.leave()
            }
            thread.name = "heatmap-http-\(i)"
            thread.start()
        }
    }

    /// Stops accepting, lets responses under way finish within `grace` seconds, closes
    /// idle connections and ends the loops. Returns at once; see ``waitUntilStopped()``.
    package func shutdown(grace: Double = 10) {
        loops[0].post(.shutdown(grace: grace))  // the acceptor closes the listener, then tells the others
    }

    /// Blocks until the loops have ended.
    package func waitUntilStopped() {
        running.wait()
    }

    /// Waits for the loops to end without blocking a thread of the concurrency pool.
    package func stopped() async {
        await withCheckedContinuation { continuation in
            running.notify(queue: .global()) { continuation.resume() }
        }
    }
}
