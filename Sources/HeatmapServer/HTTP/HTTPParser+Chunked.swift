/// A chunked request body while it arrives (RFC 9112 7.1): where the parser is in the
/// request's bytes, the data so far, and what comes next.
struct ChunkedBody: Sendable {
    enum Step: Sendable, Equatable {
        /// A chunk-size line (hexadecimal size, optional extensions).
        case size
        /// `remaining` bytes of chunk data, then its line end.
        case data(remaining: Int)
        /// Trailer fields after the last chunk, up to an empty line.
        case trailers(count: Int, bytes: Int)
    }

    var request: HTTPRequest
    /// Bytes of the request's head.
    var head: Int
    /// Bytes of the request parsed so far: its head and the chunks read.
    var offset: Int
    var body: [UInt8] = []
    var step = Step.size
    /// How far the current line has been searched for its end, so a byte-at-a-time client
    /// costs linear work.
    var scanned: Int
    /// The most bytes the whole request may take (see ``HTTPParser/chunkedFraming``).
    var readAhead: Int
}

extension HTTPParser {
    /// The longest chunk-size line, extensions included (400 beyond).
    static let maximumChunkLine = 4096
    /// The framing (size lines, line ends, trailers) a chunked body may add to its data, beyond
    /// as many bytes as the data: so a body's bytes on the wire stay within twice the limit
    /// plus this, and tiny chunks cannot make the server hold much more than the body.
    static let chunkedFraming = 64 << 10

    /// Whether the request's body is chunked and to be read (as bodies by `Content-Length`
    /// are: not for GET or HEAD, nor with bodies off); 400 for another transfer coding, or
    /// one sent by an HTTP/1.0 client.
    func isChunked(_ request: HTTPRequest) throws(HTTPParseError) -> Bool {
        let fields = request.headers["Transfer-Encoding"]
        guard !fields.isEmpty, request.hasBody, limits.maxBodyBytes > 0, request.method != "GET",
            request.method != "HEAD"
        else { return false }
        guard request.minorVersion == 1 else { throw .badRequest("Transfer-Encoding from an HTTP/1.0 client") }
        let codings = fields.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map {
            $0.trimmingWhitespace().lowercased()
        }
        guard codings == ["chunked"] else {
            throw .badRequest("Transfer-Encoding must be chunked alone (compress a body with Content-Encoding: gzip)")
        }
        return true
    }

    /// Starts reading a chunked body after a head of `head` bytes.
    mutating func startChunked(_ request: HTTPRequest, head: Int, in buffer: ArraySlice<UInt8>)
        throws(HTTPParseError) -> Parsed?
    {
        // Bounded by the limits (each at most Int.max / 4 in practice); saturating regardless.
        let wire = limits.maxBodyBytes.multipliedReportingOverflow(by: 2)
        var most = wire.overflow ? Int.max : wire.partialValue
        for extra in [head, Self.chunkedFraming, limits.maxHeaderBytes, Self.maximumChunkLine + 16] {
            let (sum, overflow) = most.addingReportingOverflow(extra)
            most = overflow ? Int.max : sum
        }
        chunked = ChunkedBody(request: request, head: head, offset: head, scanned: head, readAhead: most)
        return try continueChunked(buffer)
    }

    /// Reads what has arrived of the chunked body; the request once its last chunk and
    /// trailers are in, else `nil`. 413 when the data pass ``HTTPLimits/maxBodyBytes``, 400 for
    /// bad chunk syntax.
    mutating func continueChunked(_ buffer: ArraySlice<UInt8>) throws(HTTPParseError) -> Parsed? {
        guard var state = chunked else { return nil }
        var done = false
        defer { chunked = done ? nil : state }
        let start = buffer.startIndex
        while true {
            let available = buffer.count - state.offset
            switch state.step {
            case .data(let remaining):
                guard available > remaining else { return nil }
                let from = start + state.offset
                let end = from + remaining
                let ending: Int
                if buffer[end] == 0x0A {
                    ending = 1
                } else if buffer[end] == 0x0D {
                    guard available > remaining + 1 else { return nil }
                    guard buffer[end + 1] == 0x0A else { throw .badRequest("chunk data not followed by CRLF") }
                    ending = 2
                } else {
                    throw .badRequest("chunk data longer than its size")
                }
                state.body.append(contentsOf: buffer[from..<end])
                state.offset += remaining + ending
                state.scanned = state.offset
                state.step = .size
            case .size:
                guard let line = try nextLine(&state, in: buffer, limit: Self.maximumChunkLine) else { return nil }
                let size = try Self.chunkSize(
                    line, remaining: limits.maxBodyBytes - state.body.count, limit: limits.maxBodyBytes)
                guard state.offset - state.head - state.body.count <= state.body.count + Self.chunkedFraming else {
                    throw .badRequest("chunk framing longer than the data: send fewer, larger chunks")
                }
                state.step = size == 0 ? .trailers(count: 0, bytes: 0) : .data(remaining: size)
            case .trailers(let count, let bytes):
                guard let line = try nextLine(&state, in: buffer, limit: limits.maxHeaderBytes - bytes) else {
                    return nil
                }
                if line.isEmpty {
                    var request = state.request
                    request.body = state.body
                    done = true
                    return (request, state.offset)
                }
                guard count < limits.maxHeaderCount else {
                    throw .headersTooLarge("more than \(limits.maxHeaderCount) trailer fields")
                }
                _ = try Self.parseField(line)
                state.step = .trailers(count: count + 1, bytes: bytes + line.count + 2)
            }
        }
    }

    /// The next line at the state's offset without its CR LF (or bare LF), moving past it;
    /// `nil` while it is incomplete; 400 when it is longer than `limit`.
    private func nextLine(_ state: inout ChunkedBody, in buffer: ArraySlice<UInt8>, limit: Int)
        throws(HTTPParseError) -> ArraySlice<UInt8>?
    {
        let start = buffer.startIndex
        let from = start + max(state.scanned, state.offset)
        guard let end = buffer[from...].firstIndex(of: 0x0A) else {
            state.scanned = buffer.count
            if buffer.count - state.offset > max(limit, 0) {
                throw .badRequest("a chunk line or trailer longer than \(max(limit, 0)) bytes")
            }
            return nil
        }
        var line = buffer[(start + state.offset)..<end]
        guard line.count <= max(limit, 0) + 1 else {
            throw .badRequest("a chunk line or trailer longer than \(max(limit, 0)) bytes")
        }
        if line.last == 0x0D { line = line.dropLast() }
        state.offset = end - start + 1
        state.scanned = state.offset
        return line
    }

    /// A chunk-size line's size: 1-16 hexadecimal digits, then optional extensions (`;name`
    /// or `;name=value`, printable, ignored). 413 (naming `limit`) for a size over `remaining`.
    static func chunkSize(_ line: ArraySlice<UInt8>, remaining: Int, limit: Int) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        var rest = line[...]
        while let byte = rest.first, let digit = hexValue(byte) {
            digits += 1
            guard digits <= 16 else { throw .badRequest("a chunk size of more than 16 hexadecimal digits") }
            // size * 16 + digit without overflow: bounded by the limit before it grows.
            guard size <= (Int.max - digit) / 16 else { throw .payloadTooLarge(limit: limit) }
            size = size * 16 + digit
            rest = rest.dropFirst()
        }
        guard digits > 0 else { throw .badRequest("a chunk size that is not hexadecimal") }
        while let byte = rest.first, byte == 0x20 || byte == 0x09 { rest = rest.dropFirst() }
        if let byte = rest.first {
            guard byte == UInt8(ascii: ";"), rest.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) }) else {
                throw .badRequest("a chunk size followed by something other than extensions")
            }
        }
        guard size <= max(remaining, 0) else { throw .payloadTooLarge(limit: limit) }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41) + 10
        case 0x61...0x66: Int(byte - 0x61) + 10
        default: nil
        }
    }
}
