/// An incremental parser of HTTP/1.x request heads (RFC 9112) with hard limits.
///
/// Feed it the bytes received so far; it answers `nil` while the head is incomplete and
/// the request, or the error to answer with, once it can tell. It remembers how far it has
/// looked so a slow client sending a byte at a time costs linear work.
package struct HTTPParser: Sendable {
    /// The limits enforced.
    package let limits: HTTPLimits
    private var scanned = 0
    /// A head parsed whose body has not all arrived: the request and the bytes of head and body.
    private var pending: (request: HTTPRequest, head: Int, total: Int)?
    /// A head parsed whose chunked body is arriving (see HTTPParser+Chunked.swift).
    var chunked: ChunkedBody?

    /// How many unparsed bytes the connection should read ahead: 1 MiB, or a whole request
    /// whose body is arriving.
    package var readAhead: Int { max(1 << 20, pending?.total ?? 0, chunked?.readAhead ?? 0) }

    /// Creates a parser with limits.
    package init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// The result of a step: a request and the bytes of its head.
    package typealias Parsed = (request: HTTPRequest, consumed: Int)

    /// Parses the head at the start of `buffer`, or answers `nil` if more bytes are needed.
    package mutating func parse(_ buffer: ArraySlice<UInt8>) throws(HTTPParseError) -> Parsed? {
        if let waiting = pending { return body(of: waiting, in: buffer) }
        if chunked != nil { return try continueChunked(buffer) }
        let start = buffer.startIndex
        var skip = start
        // RFC 9112 2.2: ignore empty lines before the request line (a few, not unbounded).
        while skip < buffer.endIndex, skip - start < 8, buffer[skip] == 0x0D || buffer[skip] == 0x0A { skip += 1 }
        guard let headEnd = findHeadEnd(buffer, from: skip) else {
            guard let lineEnd = buffer[skip...].firstIndex(of: 0x0A) else {
                if buffer.endIndex - skip > limits.maxRequestLine {
                    throw .requestLineTooLong(limit: limits.maxRequestLine)
                }
                return nil
            }
            // Lengths minus the slack, not limits plus it: a limit of Int.max must not overflow.
            if lineEnd - skip - 1 > limits.maxRequestLine { throw .requestLineTooLong(limit: limits.maxRequestLine) }
            if buffer.endIndex - lineEnd - 1 - 4 > limits.maxHeaderBytes {
                throw .headersTooLarge("more than \(limits.maxHeaderBytes) bytes")
            }
            return nil
        }
        scanned = 0
        var lines = HeadLines(buffer[skip..<headEnd])
        guard let requestLine = lines.next() else { throw .badRequest("empty request") }
        guard requestLine.count <= limits.maxRequestLine else {
            throw .requestLineTooLong(limit: limits.maxRequestLine)
        }
        var request = try Self.parseRequestLine(requestLine)
        let headerBytes = headEnd - skip - requestLine.count
        guard headerBytes - 4 <= limits.maxHeaderBytes else {
            throw .headersTooLarge("more than \(limits.maxHeaderBytes) bytes")
        }
        while let line = lines.next() {
            if line.isEmpty { break }
            guard request.headers.count < limits.maxHeaderCount else {
                throw .headersTooLarge("more than \(limits.maxHeaderCount) fields")
            }
            let (name, value) = try Self.parseField(line)
            request.headers.add(name, value)
        }
        try Self.interpret(&request)
        let head = headEnd - start
        if request.hasBody, limits.bodiesNeedToken, limits.maxBodyBytes > 0, request.method != "GET",
            request.method != "HEAD",
            limits.bodyToken?.accepts(authorization: request.headers.first("Authorization")) != true
        {
            request.bodyUnread = true
            return (request, head)
        }
        if try isChunked(request) { return try startChunked(request, head: head, in: buffer) }
        guard let length = try bodyLength(of: request) else { return (request, head) }
        let (total, overflow) = head.addingReportingOverflow(length)
        guard !overflow else { throw .payloadTooLarge(limit: limits.maxBodyBytes) }
        return body(of: (request, head, total), in: buffer)
    }

    /// The length of a body to read, or `nil` for none (no body, GET or HEAD, or bodies off).
    func bodyLength(of request: HTTPRequest) throws(HTTPParseError) -> Int? {
        guard request.hasBody, limits.maxBodyBytes > 0, request.method != "GET", request.method != "HEAD" else {
            return nil
        }
        guard let text = request.headers.first("Content-Length") else { throw .lengthRequired }
        let first = text.split(separator: ",").first.map { $0.trimmingWhitespace() } ?? ""
        guard let length = Int(first), length <= limits.maxBodyBytes else {
            throw .payloadTooLarge(limit: limits.maxBodyBytes)
        }
        return length
    }

    /// The request with its body once all of it is in `buffer`; else remembers it and answers `nil`.
    private mutating func body(
        of waiting: (request: HTTPRequest, head: Int, total: Int), in buffer: ArraySlice<UInt8>
    ) -> Parsed? {
        guard buffer.count >= waiting.total else {
            pending = waiting
            return nil
        }
        pending = nil
        var request = waiting.request
        let from = buffer.startIndex + waiting.head
        request.body = Array(buffer[from..<(buffer.startIndex + waiting.total)])
        return (request, waiting.total)
    }

    /// The index just past the blank line ending the head, scanning only new bytes.
    private mutating func findHeadEnd(_ buffer: ArraySlice<UInt8>, from skip: Int) -> Int? {
        var i = max(skip, buffer.startIndex + scanned - 3)
        while i < buffer.endIndex {
            if buffer[i] == 0x0A {
                // "\n\n" or "\n\r\n"
                if i + 1 < buffer.endIndex, buffer[i + 1] == 0x0A { return i + 2 }
                if i + 2 < buffer.endIndex, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        scanned = buffer.endIndex - buffer.startIndex
        return nil
    }

    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequest {
        // Exactly two spaces: METHOD SP TARGET SP VERSION (found without splitting into an array).
        let space: UInt8 = 0x20
        guard let first = line.firstIndex(of: space),
            let second = line[(first + 1)...].firstIndex(of: space),
            !line[(second + 1)...].contains(space)
        else { throw .badRequest("the request line is not METHOD TARGET VERSION") }
        let (method, target, version) = (line[..<first], line[(first + 1)..<second], line[(second + 1)...])
        guard !method.isEmpty, method.allSatisfy(\.isTokenCharacter) else { throw .badRequest("invalid method") }
        guard !target.isEmpty, target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badRequest("invalid request target")
        }
        let versionText = String(decoding: version, as: UTF8.self)
        let minor: Int
        switch versionText {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            guard version.count == 8, versionText.hasPrefix("HTTP/"),
                version.dropFirst(5).enumerated().allSatisfy({ $0 == 1 ? $1 == 0x2E : (0x30...0x39).contains($1) })
            else { throw .badRequest("invalid HTTP version") }
            throw .versionNotSupported(versionText)
        }
        let targetText = String(decoding: target, as: UTF8.self)
        guard
            target.first == UInt8(ascii: "/") || targetText.lowercased().hasPrefix("http://")
                || targetText.lowercased().hasPrefix("https://")
        else { throw .badRequest("the request target must be a path") }
        return HTTPRequest(method: String(decoding: method, as: UTF8.self), target: targetText, minorVersion: minor)
    }

    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw .badRequest("obsolete line folding in header fields")
        }
        guard let colon = line.firstIndex(of: 0x3A) else { throw .badRequest("a header field without a colon") }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(\.isTokenCharacter) else { throw .badRequest("invalid header name") }
        var value = line[(colon + 1)...]
        while let b = value.first, b == 0x20 || b == 0x09 { value = value.dropFirst() }
        while let b = value.last, b == 0x20 || b == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 }) else {
            throw .badRequest("control characters in a header value")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// Host, Connection, body framing: one pass over the fields finds those that matter (most
    /// requests have a Host and nothing else of these), and only those are split and compared.
    static func interpret(_ request: inout HTTPRequest) throws(HTTPParseError) {
        var hosts = 0
        var (connection, length, transfer) = (false, false, false)
        for field in request.headers {
            switch field.name.utf8.count {
            case 4 where field.name.caseInsensitiveEquals("Host"): hosts += 1
            case 10 where field.name.caseInsensitiveEquals("Connection"): connection = true
            case 14 where field.name.caseInsensitiveEquals("Content-Length"): length = true
            case 17 where field.name.caseInsensitiveEquals("Transfer-Encoding"): transfer = true
            default: break
            }
        }
        if request.minorVersion == 1 && hosts != 1 { throw .badRequest("HTTP/1.1 needs exactly one Host field") }
        if hosts > 1 { throw .badRequest("more than one Host field") }
        let tokens =
            connection
            ? request.headers["Connection"].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingWhitespace().lowercased()
            } : []
        // `close` wins over `keep-alive` wherever either appears (RFC 9112 9.3, 9.6).
        request.keepAlive = !tokens.contains("close") && (request.minorVersion == 1 || tokens.contains("keep-alive"))
        let lengths =
            length
            ? request.headers["Content-Length"].flatMap {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            .map { $0.trimmingWhitespace() } : []
        if !lengths.isEmpty {
            guard
                lengths.allSatisfy({ !$0.isEmpty && $0.count < 19 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
                ),
                Set(lengths).count == 1
            else { throw .badRequest("invalid Content-Length") }
            request.hasBody = (Int(lengths[0]) ?? 1) > 0
        }
        if transfer {
            guard lengths.isEmpty else { throw .badRequest("both Transfer-Encoding and Content-Length") }
            request.hasBody = true
        }
    }
}

/// The lines of a head, each without its CR LF (or bare LF).
struct HeadLines: IteratorProtocol {
    private var rest: ArraySlice<UInt8>

    init(_ head: ArraySlice<UInt8>) { rest = head }

    mutating func next() -> ArraySlice<UInt8>? {
        guard !rest.isEmpty else { return nil }
        let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
        var line = rest[..<end]
        rest = end < rest.endIndex ? rest[(end + 1)...] : rest[rest.endIndex...]
        if line.last == 0x0D { line = line.dropLast() }
        return line
    }
}

extension UInt8 {
    /// RFC 9110 tchar.
    var isTokenCharacter: Bool {
        switch self {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
