import Synchronization

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(CEpoll)
    import CEpoll
#endif

/// One thread multiplexing its connections with epoll (level-triggered), non-blocking; the
/// server runs one per core, the first also accepting and handing connections to each in turn.
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
    let epoll: Int32
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
        accessLog: AccessLog? = nil
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
        let set = cepoll_create()
        guard set >= 0, cepoll_add(set, ends[0], cepoll_in, Self.wakeID) == 0 else {
            let error = SocketError("epoll")
            if set >= 0 { close(set) }
            for end in ends { close(end) }
            throw error
        }
        (wake, wakeWriter, epoll) = (ends[0], ends[1], set)
        self.listener = listener
    }

    deinit {
        scratch.deallocate()
        vectors.deallocate()
        if listener >= 0 { close(listener) }  // never started
        close(epoll)
        close(wake)
        close(wakeWriter)
    }

    /// Hands a message to the loop from any thread.
    func post(_ message: Message) {
        inbox.withLock { $0.append(message) }
        var one: UInt8 = 1
        _ = Glibc.write(wakeWriter, &one, 1)
    }

    /// Runs until shut down and every connection is closed.
    func run() {
        let capacity = 256
        var ids = [UInt64](repeating: 0, count: capacity)
        var events = [UInt32](repeating: 0, count: capacity)
        while true {
            let now = Socket.now()
            if let deadline = shutdownDeadline, connections.isEmpty || now > deadline { break }
            if listener >= 0, !listenerRegistered, now >= acceptPausedUntil {
                listenerRegistered = cepoll_add(epoll, listener, cepoll_in, Self.listenerID) == 0
            }
            let count = cepoll_wait(epoll, &ids, &events, Int32(capacity), 100)
            for i in 0..<max(0, Int(count)) {
                switch ids[i] {
                case Self.listenerID: acceptAll()
                case Self.wakeID: drainInbox()
                default:
                    guard let connection = connections[ids[i]] else { continue }
                    handle(connection, events: events[i])
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
        close(listener)  // leaves the epoll set with it
        listener = -1
        listenerRegistered = false
    }

    private func drainInbox() {
        var sink = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wake, &sink, sink.count) > 0 {}
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
