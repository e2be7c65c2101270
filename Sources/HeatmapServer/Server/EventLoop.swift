import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One thread multiplexing the listener and every connection with `poll`, non-blocking.
/// Responders' deferred work finishes on other threads and comes back through the inbox and
/// a wake-up pipe. (Glibc's Swift module has no epoll; `poll` over a few thousand descriptors
/// costs microseconds.)
///
/// `@unchecked Sendable`: everything but `inbox` (a mutex) and the descriptors set in `init`
/// is touched only on the loop's thread.
final class EventLoop: @unchecked Sendable {
    enum Message {
        case completed(connection: UInt64, sequence: UInt64, response: HTTPResponse, headOnly: Bool, keepAlive: Bool)
        case shutdown(grace: Double)
    }

    static let listenerID: UInt64 = 0
    static let wakeID: UInt64 = 1

    let limits: HTTPLimits
    let responder: any HTTPResponder
    let stats: ServerStats
    let wake: Int32
    let wakeWriter: Int32
    var listener: Int32
    private let inbox = Mutex<[Message]>([])
    var connections: [UInt64: Connection] = [:]
    private var nextID: UInt64 = 2
    var shutdownDeadline: Double?
    var lastSweep = 0.0
    /// Out of descriptors: accepting waits a little rather than spinning on a ready listener.
    var acceptPausedUntil = 0.0
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    var dateSecond = -1
    var date = ""

    init(listener: Int32, limits: HTTPLimits, responder: any HTTPResponder, stats: ServerStats) throws(SocketError) {
        self.listener = listener
        self.limits = limits
        self.responder = responder
        self.stats = stats
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (wake, wakeWriter) = (ends[0], ends[1])
    }

    deinit {
        scratch.deallocate()
        if listener >= 0 { close(listener) }  // never started
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
        var descriptors: [pollfd] = []
        var owners: [UInt64] = []
        while true {
            let now = Socket.now()
            if let deadline = shutdownDeadline, connections.isEmpty || now > deadline { break }
            descriptors.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
            owners.append(Self.wakeID)
            if listener >= 0 && now >= acceptPausedUntil {
                descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
                owners.append(Self.listenerID)
            }
            for connection in connections.values {
                descriptors.append(pollfd(fd: connection.fd, events: connection.events, revents: 0))
                owners.append(connection.id)
            }
            let count = poll(&descriptors, nfds_t(descriptors.count), 100)
            if count > 0 {
                for (descriptor, owner) in zip(descriptors, owners) where descriptor.revents != 0 {
                    switch owner {
                    case Self.listenerID: acceptAll()
                    case Self.wakeID: drainInbox()
                    default:
                        guard let connection = connections[owner] else { continue }
                        handle(connection, events: descriptor.revents)
                    }
                }
            }
            sweepTimeouts()
        }
        for connection in Array(connections.values) { closeConnection(connection) }
        if listener >= 0 { close(listener) }
        listener = -1
        // The wake-up pipe stays open until `deinit`: a render finishing late may still post.
    }

    private func acceptAll() {
        while listener >= 0 {
            guard let fd = Socket.accept(listener) else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    acceptPausedUntil = Socket.now() + 0.1
                }
                return
            }
            stats.acceptedConnections.add(1, ordering: .relaxed)
            guard connections.count < limits.maxConnections else {
                stats.rejectedConnections.add(1, ordering: .relaxed)
                let refusal = HTTPResponse.text(.serviceUnavailable, "too many connections")
                    .serialized(headOnly: false, keepAlive: false, date: currentDate())
                _ = Socket.write(fd, refusal, from: 0)
                close(fd)
                continue
            }
            let connection = Connection(id: nextID, fd: fd, limits: limits, now: Socket.now())
            nextID += 1
            connections[connection.id] = connection
            stats.openConnections.add(1, ordering: .relaxed)
            updateInterest(connection)
        }
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
            case .completed(let id, let sequence, let response, let headOnly, let keepAlive):
                guard let connection = connections[id] else { continue }
                complete(sequence, with: response, on: connection, headOnly: headOnly, keepAlive: keepAlive)
                process(connection)
            case .shutdown(let grace):
                beginShutdown(grace: grace)
            }
        }
    }

    private func beginShutdown(grace: Double) {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = Socket.now() + grace
        if listener >= 0 {
            close(listener)
            listener = -1
        }
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
        }
        return date
    }
}
