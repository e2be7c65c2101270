/// The state of one client connection; touched only on the event loop's thread.
final class Connection {
    let id: UInt64
    let fd: Int32
    /// The peer's address, from `accept`.
    let peer: String
    var parser: HTTPParser
    /// Bytes received and not yet parsed start at `inputStart`.
    var input: [UInt8] = []
    var inputStart = 0
    /// Response chunks to send (heads, and bodies as the responder made them, not copied),
    /// the first from `outputSent`; `outputBytes` counts what is left.
    var output: [[UInt8]] = []
    var outputSent = 0
    var outputBytes = 0
    /// Requests dispatched and not yet written, in order: pipelined requests are worked on at
    /// once (up to a cap) and their responses written in the order they came.
    var slots: [Slot] = []
    var nextSequence: UInt64 = 0
    /// No more requests are taken (one asked to close, an error, shutdown).
    var stopParsing = false
    /// Close once the output is sent.
    var closeAfterWrite = false
    /// Output sent and write side shut: reading and discarding until the peer closes.
    var draining = false
    var drainDeadline = 0.0
    /// The peer shut its write side.
    var peerClosed = false
    var requestsServed = 0
    /// When the last byte moved either way.
    var lastProgress: Double
    /// When the output last moved towards the client (or began to wait): the write timeout
    /// counts from here, so a client that never reads cannot hold the connection by sending.
    var lastWrite: Double
    /// When the first byte of the request now being received arrived.
    var requestStarted: Double?
    /// The events wanted, and those the poller has (`nil` before the first registration).
    var events: PollerInterest = []
    var registered: PollerInterest?

    init(id: UInt64, fd: Int32, peer: String, limits: HTTPLimits, now: Double) {
        self.id = id
        self.fd = fd
        self.peer = peer
        parser = HTTPParser(limits: limits)
        lastProgress = now
        lastWrite = now
    }

    /// One response place in the pipeline.
    struct Slot {
        var sequence: UInt64
        var chunks: [[UInt8]]?
        var close = false
    }

    /// Whether responses are still being made.
    var awaiting: Bool { !slots.isEmpty }

    var unparsed: ArraySlice<UInt8> { input[inputStart...] }
    var hasPendingOutput: Bool { outputBytes > 0 }
    var isIdle: Bool { !awaiting && !hasPendingOutput && unparsed.isEmpty }

    /// Drops consumed input once it is worth moving the rest.
    func consumeInput(_ count: Int) {
        inputStart += count
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 1 << 16)
            inputStart = 0
        } else if inputStart > 1 << 16 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// Reserves the next place in the response order.
    func reserve() -> UInt64 {
        nextSequence += 1
        slots.append(Slot(sequence: nextSequence))
        return nextSequence
    }

    /// Fills a place; moves every finished response at the head of the line to the output.
    func fill(_ sequence: UInt64, chunks: [[UInt8]], close: Bool) {
        guard let i = slots.firstIndex(where: { $0.sequence == sequence }) else { return }
        slots[i].chunks = chunks
        slots[i].close = close
        while let first = slots.first, let ready = first.chunks {
            // The write timeout counts from when output starts waiting (and from each write that moves bytes).
            if outputBytes == 0 { lastWrite = Socket.now() }
            for chunk in ready where !chunk.isEmpty {
                output.append(chunk)
                outputBytes += chunk.count
            }
            if first.close { closeAfterWrite = true }
            slots.removeFirst()
        }
    }

    /// Marks `count` bytes as sent, dropping the chunks done.
    func sent(_ count: Int) {
        outputBytes -= count
        var left = count
        while left > 0, let first = output.first {
            let rest = first.count - outputSent
            if left < rest {
                outputSent += left
                return
            }
            left -= rest
            output.removeFirst()
            outputSent = 0
        }
    }
}
