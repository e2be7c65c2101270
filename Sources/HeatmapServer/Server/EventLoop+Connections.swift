extension EventLoop {
    /// Reads, parses and answers what a readiness event allows, then writes.
    func handle(_ connection: Connection, events: PollerEvent.Kind) {
        if events.contains(.error) { return closeConnection(connection) }
        if !events.isDisjoint(with: [.readable, .hangup]) {
            readAvailable(connection)
            // Both directions shut (or reset): nobody is left to answer.
            if events.contains(.hangup) { return closeConnection(connection) }
            if connection.draining {
                if connection.peerClosed { closeConnection(connection) }
                return
            }
            process(connection)
        }
        if events.contains(.writable), connections[connection.id] != nil {
            flush(connection)
            // Output drained: go on with requests pipelined behind it.
            if connections[connection.id] != nil, !connection.hasPendingOutput, !connection.unparsed.isEmpty {
                process(connection)
            }
        }
    }

    private func readAvailable(_ connection: Connection) {
        var total = 0
        while total < 1 << 18 {
            switch Socket.read(connection.fd, into: scratch) {
            case .done(let n):
                total += n
                connection.lastProgress = Socket.now()
                if connection.draining { continue }
                connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
                if connection.unparsed.count > connection.parser.readAhead { return }  // far ahead: wait
                // A short read took all there was: no second call to hear EAGAIN (level-triggered,
                // so anything arriving meanwhile is reported again).
                if n < scratch.count { return }
            case .wouldBlock: return
            case .closed:
                connection.peerClosed = true
                return
            }
        }
    }

    /// Parses and dispatches buffered requests, one at a time per connection, in order,
    /// writing as it goes; holds off while 1 MiB of responses waits for the client.
    func process(_ connection: Connection) {
        var outputFull = true
        while outputFull, connections[connection.id] != nil {
            outputFull = false
            while !connection.stopParsing, connection.slots.count < Self.pipelineDepth, !connection.unparsed.isEmpty {
                guard connection.outputBytes < 1 << 20 else {
                    outputFull = true
                    break
                }
                let parsed: HTTPParser.Parsed
                do {
                    guard let result = try connection.parser.parse(connection.unparsed) else { break }
                    parsed = result
                } catch {
                    stats.malformedRequests.add(1, ordering: .relaxed)
                    let response = HTTPResponse.text(error.status, error.description)
                    send(response, on: connection, headOnly: false, keepAlive: false, requestLine: "-")
                    break
                }
                connection.consumeInput(parsed.consumed)
                connection.requestStarted = nil
                dispatch(parsed.request, on: connection)
            }
            if connection.unparsed.isEmpty {
                connection.requestStarted = nil
            } else if connection.requestStarted == nil {
                connection.requestStarted = Socket.now()
            }
            flush(connection)
            // Only go round again if the socket took everything; otherwise POLLOUT resumes.
            outputFull = outputFull && !connection.hasPendingOutput
        }
    }

    /// Requests of one connection worked on at once.
    static let pipelineDepth = 16

    private func dispatch(_ request: HTTPRequest, on connection: Connection) {
        connection.requestsServed += 1
        let headOnly = request.method == "HEAD"
        let requestLine = accessLog == nil ? "" : AccessLog.requestLine(request)
        let keepAlive =
            request.keepAlive && (!request.hasBody || request.body != nil) && shutdownDeadline == nil
            && connection.requestsServed < limits.maxRequestsPerConnection
        // Bodies the parser did not read (bodies off, GET and HEAD) are refused.
        if request.hasBody && request.body == nil && !request.bodyUnread {
            let allowed = request.method == "GET" || request.method == "HEAD"
            var response = HTTPResponse.text(
                allowed ? .badRequest : .methodNotAllowed,
                allowed ? "requests with a body are not accepted" : "only GET and HEAD are allowed")
            if !allowed { response.headers.add("Allow", responder.allowedMethods) }
            return send(response, on: connection, headOnly: headOnly, keepAlive: false, requestLine: requestLine)
        }
        // HTTP/1.0 clients keep the connection only when told so.
        let announce = keepAlive && request.minorVersion == 0
        if !keepAlive { connection.stopParsing = true }
        let reusable = reusing != nil && LoopResponseCache.accepts(request)
        if reusable, let entry = answers.lookup(request.target) {
            entry.stamp.reused()
            if keepAlive && !announce {
                return sendKept(entry, on: connection, headOnly: headOnly, requestLine: requestLine)
            }
            var response = entry.response
            if announce { response.headers.add("Connection", "keep-alive") }
            return send(response, on: connection, headOnly: headOnly, keepAlive: keepAlive, requestLine: requestLine)
        }
        var stamp: ReuseStamp?
        let reply = reusable ? reusing?.respond(to: request, reuse: &stamp) : nil
        switch reply ?? responder.respond(to: request) {
        case .response(var response):
            if let stamp { answers.insert(response, stamp: stamp, for: request.target) }
            if announce { response.headers.add("Connection", "keep-alive") }
            send(response, on: connection, headOnly: headOnly, keepAlive: keepAlive, requestLine: requestLine)
        case .deferred(let start):
            let id = connection.id
            let sequence = connection.reserve()
            start { [self] response in
                var response = response
                if announce { response.headers.add("Connection", "keep-alive") }
                post(
                    .completed(
                        connection: id, sequence: sequence, response: response, headOnly: headOnly,
                        keepAlive: keepAlive, requestLine: requestLine))
            }
        }
    }

    /// Queues a response after those before it.
    func send(
        _ response: HTTPResponse, on connection: Connection, headOnly: Bool, keepAlive: Bool, requestLine: String
    ) {
        complete(
            connection.reserve(), with: response, on: connection, headOnly: headOnly, keepAlive: keepAlive,
            requestLine: requestLine)
    }

    /// Queues a kept answer after the responses before it: its written head, the date and the
    /// body, each as it is (written with `writev`, never copied together); keep-alive only.
    private func sendKept(
        _ entry: LoopResponseCache.Entry, on connection: Connection, headOnly: Bool, requestLine: String
    ) {
        _ = currentDate()
        let withBody = !headOnly && entry.response.hasBody
        connection.fill(
            connection.reserve(),
            chunks: withBody ? [entry.head, dateTail, entry.response.body] : [entry.head, dateTail],
            close: false)
        accessLog?.log(
            peer: connection.peer, requestLine: requestLine, status: entry.response.status.code,
            bytes: withBody ? entry.response.body.count : 0)
    }

    /// Fills a place in the response order with the head and the body as they are (written
    /// with `writev`, never copied together), and logs the request.
    func complete(
        _ sequence: UInt64, with response: HTTPResponse, on connection: Connection, headOnly: Bool, keepAlive: Bool,
        requestLine: String
    ) {
        let keep = keepAlive && shutdownDeadline == nil
        if !keep { connection.stopParsing = true }
        let date = currentDate()
        let head = response.serializedHead(keepAlive: keep, date: date)
        let withBody = !headOnly && response.hasBody
        connection.fill(sequence, chunks: withBody ? [head, response.body] : [head], close: !keep)
        accessLog?.log(
            peer: connection.peer, requestLine: requestLine, status: response.status.code,
            bytes: withBody ? response.body.count : 0)
    }

    /// Writes what the socket takes; closes or drains when done and asked to.
    func flush(_ connection: Connection) {
        while connection.hasPendingOutput {
            switch Socket.write(
                connection.fd, chunks: connection.output, offset: connection.outputSent, vectors: vectors)
            {
            case .done(let n):
                connection.sent(n)
                connection.lastProgress = Socket.now()
                if n > 0 { connection.lastWrite = connection.lastProgress }
            case .wouldBlock:
                return updateInterest(connection)
            case .closed:
                return closeConnection(connection)
            }
        }
        if connection.closeAfterWrite && !connection.awaiting {
            // Half-close and read what the client still sends, so it sees the response, not a reset.
            Posix.shutdownWrite(connection.fd)
            connection.draining = true
            connection.drainDeadline = Socket.now() + 2
            if connection.peerClosed { return closeConnection(connection) }
        } else if connection.peerClosed && !connection.awaiting {
            return closeConnection(connection)
        }
        updateInterest(connection)
    }

    func updateInterest(_ connection: Connection) {
        var wanted: PollerInterest = []
        let reading =
            !connection.peerClosed && (connection.draining || connection.unparsed.count <= connection.parser.readAhead)
        if reading { wanted.insert(.readable) }
        if connection.hasPendingOutput { wanted.insert(.writable) }
        connection.events = wanted
        guard connection.registered != wanted else { return }
        let done =
            connection.registered == nil
            ? poller.add(connection.fd, interest: wanted, id: connection.id)
            : poller.modify(connection.fd, interest: wanted, id: connection.id)
        // The set refused it (out of memory): a connection the loop cannot watch is closed.
        guard done else { return closeConnection(connection) }
        connection.registered = wanted
    }

    func closeConnection(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        if connection.registered != nil { poller.closing(connection.fd) }
        Posix.close(connection.fd)
        stats.openConnections.subtract(1, ordering: .relaxed)
    }

    /// Closes idle, slow and stalled connections; answers a slow request 408 first.
    func sweepTimeouts() {
        let now = Socket.now()
        guard now - lastSweep >= 0.05 else { return }
        lastSweep = now
        for connection in Array(connections.values) {
            if connection.draining {
                if now > connection.drainDeadline { closeConnection(connection) }
            } else if connection.hasPendingOutput {
                if now - connection.lastWrite > limits.writeTimeout { timedOut(connection, answer: false) }
            } else if connection.awaiting {
                continue
            } else if let started = connection.requestStarted {
                if now - started > limits.requestTimeout { timedOut(connection, answer: true) }
            } else if now - connection.lastProgress > limits.idleTimeout {
                timedOut(connection, answer: false)
            }
        }
    }

    private func timedOut(_ connection: Connection, answer: Bool) {
        stats.timeouts.add(1, ordering: .relaxed)
        guard answer else { return closeConnection(connection) }
        send(
            HTTPResponse.text(.requestTimeout, "the request took too long to arrive"), on: connection, headOnly: false,
            keepAlive: false, requestLine: "-")
        flush(connection)
    }
}
