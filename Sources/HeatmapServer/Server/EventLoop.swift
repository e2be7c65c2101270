import Synchronization

/// One thread multiplexing its connections with a ``Poller`` (epoll or `poll(2)`,
/// level-triggered), non-blocking; the server runs one per core, the first also accepting and handing connections to each in turn.
/// Responders' deferred work finishes on other threads and comes back through the inbox and a
/// wake-up pipe.
///
/// `@unchecked Sendable`: everything but `inbox` (a mutex) and the descriptors set in `init`
/// is touched only on the loop's thread.
final class EventLoop: @unchecked Sendable {
    enum Message {
        case completed(
            connection: UInt64, sequence: UInt64, response: HTTPResponse, headOnly: Bool, keepAlive: Bool,
            requestLine: String)
        case shutdown(grace: Double)
        /// A connection the acceptor hands to this loop.
        case adopt(fd: Int32, peer: String)
    }

    static let listenerID: UInt64 = 0
    static let wakeID: UInt64 = 1

    let limits: HTTPLimits
    let responder: any HTTPResponder
    let stats: ServerStats
    let wake: Int32
    let wakeWriter: Int32
    let poller: any Poller
    /// What the last wait found ready (kept, so waiting allocates nothing).
    var ready: [PollerEvent] = []
    var listener: Int32
    var listenerRegistered = false
    /// Where requests are logged, if anywhere.
    let accessLog: AccessLog?
    private let inbox = Mutex<[Message]>([])
    var connections: [UInt64: Connection] = [:]
    var nextID: UInt64 = 2
    var shutdownDeadline: Double?
    var lastSweep = 0.0
    /// The other loops, which the acceptor (the one with the listener) hands connections to in
    /// turn with itself; emptied when it stops.
    var siblings: [EventLoop] = []
    var nextSibling = 0
    /// Out of descriptors: accepting waits a little rather than spinning on a ready listener.
    var acceptPausedUntil = 0.0
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    /// Room for one `writev`'s vectors.
    let vectors = UnsafeMutableBufferPointer<iovec>.allocate(capacity: Socket.maxVectors)
    var dateSecond = -1
    var date = ""
    /// `Date: …` and the blank line ending a head, for answers from ``answers``.
    var dateTail: [UInt8] = []
    /// The responder, when it lets loops keep answers, and this loop's copies of them.
    let reusing: (any ReusingResponder)?
    let answers: LoopResponseCache

    init(
        listener: Int32, limits: HTTPLimits, responder: any HTTPResponder, stats: ServerStats,
        accessLog: AccessLog? = nil, backend: EventLoopBackend = .platformDefault
    ) throws(SocketError) {
        self.limits = limits
        self.responder = responder
        self.stats = stats
        self.accessLog = accessLog
        reusing = responder as? any ReusingResponder
        answers = LoopResponseCache(capacityBytes: reusing?.reuseBytesPerLoop ?? 0)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let set: any Poller
        do throws(SocketError) {
            set = try backend.makePoller()
            guard set.add(ends[0], interest: .readable, id: Self.wakeID) else { throw SocketError(backend.rawValue) }
        } catch {
            for end in ends { Posix.close(end) }
            throw error
        }
        (wake, wakeWriter, poller) = (ends[0], ends[1], set)
        self.listener = listener
    }

    deinit {
        scratch.deallocate()
        vectors.deallocate()
        if listener >= 0 { Posix.close(listener) }  // never started
        Posix.close(wake)
        Posix.close(wakeWriter)
    }

    /// Hands a message to the loop from any thread.
    func post(_ message: Message) {
        inbox.withLock { $0.append(message) }
        var one: UInt8 = 1
        _ = Posix.write(wakeWriter, &one, 1)
    }

    /// Runs until shut down and every connection is closed.
    func run() {
        ready.reserveCapacity(256)
        while true {
            let now = Socket.now()
            if let deadline = shutdownDeadline, connections.isEmpty || now > deadline { break }
            if listener >= 0, !listenerRegistered, now >= acceptPausedUntil {
                listenerRegistered = poller.add(listener, interest: .readable, id: Self.listenerID)
            }
            poller.wait(timeout: 100, into: &ready)
            for event in ready {
                switch event.id {
                case Self.listenerID: acceptAll()
                case Self.wakeID: drainInbox()
                default:
                    guard let connection = connections[event.id] else { continue }
                    handle(connection, events: event.kind)
                }
            }
            sweepTimeouts()
        }
        for connection in Array(connections.values) { closeConnection(connection) }
        closeListener()
        siblings = []
        // The wake-up pipe stays open until `deinit`: a render finishing late may still post.
    }

    func closeListener() {
        guard listener >= 0 else { return }
        poller.closing(listener)
        Posix.close(listener)
        listener = -1
        listenerRegistered = false
    }

    private func drainInbox() {
        var sink = [UInt8](repeating: 0, count: 256)
        while Posix.read(wake, &sink, sink.count) > 0 {}
        let messages = inbox.withLock { messages in
            defer { messages.removeAll() }
            return messages
        }
        for message in messages {
            switch message {
            case .completed(let id, let sequence, let response, let headOnly, let keepAlive, let requestLine):
                guard let connection = connections[id] else { continue }
                complete(
                    sequence, with: response, on: connection, headOnly: headOnly, keepAlive: keepAlive,
                    requestLine: requestLine)
                process(connection)
            case .shutdown(let grace):
                beginShutdown(grace: grace)
            case .adopt(let fd, let peer):
                adopt(fd, peer: peer)
            }
        }
    }

    private func beginShutdown(grace: Double) {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = Socket.now() + grace
        closeListener()
        // Only now the others: once any connection is seen closed, new ones are refused too.
        for sibling in siblings { sibling.post(.shutdown(grace: grace)) }
        for connection in Array(connections.values) {
            connection.stopParsing = true
            if connection.isIdle && !connection.closeAfterWrite {
                closeConnection(connection)
            } else if !connection.awaiting {
                connection.closeAfterWrite = true
                flush(connection)
            }
        }
    }

    func currentDate() -> String {
        let second = HTTPDate.now()
        if second != dateSecond {
            dateSecond = second
            date = HTTPDate.format(second)
            dateTail = Array("Date: \(date)\r\n\r\n".utf8)
        }
        return date
    }
}
