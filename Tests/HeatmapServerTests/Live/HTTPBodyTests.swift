import HeatmapServer
import Testing

/// The parser reads bodies by `Content-Length` up to ``HTTPLimits/maxBodyBytes``.
@Suite struct HTTPBodyTests {
    static func parser(limit: Int) -> HTTPParser {
        var limits = HTTPLimits()
        limits.maxBodyBytes = limit
        return HTTPParser(limits: limits)
    }

    @Test("a body arriving in pieces is read whole, then the next request")
    func pieces() throws {
        var parser = Self.parser(limit: 100)
        let bytes = Array("POST /p/points HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789GET /".utf8)
        let headEnd = bytes.count - 15
        for end in headEnd..<(headEnd + 10) { #expect(try parser.parse(bytes[0..<end]) == nil) }
        #expect(parser.readAhead >= 1 << 20)
        let parsed = try #require(try parser.parse(bytes[0...]))
        #expect(parsed.request.body == Array("0123456789".utf8))
        #expect(parsed.consumed == headEnd + 10)
        #expect(try parser.parse(bytes[parsed.consumed...]) == nil)
    }

    @Test("beyond the limit 413 before any of it is read; bodies off or GET: not read")
    func limits() throws {
        var parser = Self.parser(limit: 9)
        #expect(throws: HTTPParseError.payloadTooLarge(limit: 9)) {
            try parser.parse(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n".utf8)[0...])
        }
        var chunked = Self.parser(limit: 9)
        // A chunked body is read (HTTPChunkedBodyTests): without its chunks yet, more is needed.
        #expect(
            try chunked.parse(Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)[0...])
                == nil)
        var off = Self.parser(limit: 0)
        let post = try #require(
            try off.parse(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n".utf8)[0...]))
        #expect(post.request.hasBody && post.request.body == nil)
        var get = Self.parser(limit: 100)
        let head = try #require(
            try get.parse(Array("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8)[0...]))
        #expect(head.request.body == nil)
    }
}
