import Testing

@testable import HeatmapServer

/// The cached tile's path written over bytes (the target check's shortcut, the ETag text, the
/// request line and fields read without splitting) answers as the general code does.
@Suite struct HotPathTests {
    /// A seeded generator of small values.
    struct Seeded {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    }

    /// A path without `%` is refused exactly when a segment after the first `/` is `.` or `..`
    /// (what the general check finds by splitting).
    @Test func thePlainPathShortcutRefusesWhatTheSplitDoes() {
        var random = Seeded(state: 42)
        var refused = 0
        for _ in 0..<20_000 {
            let length = Int(random.next() % 12)
            let path = String((0..<length).map { _ in random.pick(["/", ".", "a", "7", "@"]) as Character })
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            let expected = segments.contains { $0 == "." || $0 == ".." }
            let found = TileService.targetRefusal(path: path, query: "")
            #expect((found != nil) == expected, "\(path)")
            if found != nil { refused += 1 }
        }
        #expect(refused > 1000)
        #expect(TileService.targetRefusal(path: "/police_stations/8/228/154.png", query: "") == nil)
        #expect(TileService.targetRefusal(path: "/a/%2e%2E/b.png", query: "")?.0 == .notFound)
        #expect(TileService.targetRefusal(path: "/a/..", query: "")?.0 == .notFound)
        #expect(TileService.targetRefusal(path: "/a/...", query: "") == nil)
    }

    /// The tag written byte by byte is the hexadecimal text `String(_:radix:)` gives.
    @Test func theStrongTagIsHashAndLengthInHexadecimal() {
        var random = Seeded(state: 7)
        var values: [(UInt64, Int)] = [(0, 0), (UInt64.max, Int.max), (1, 15), (16, 16), (0xF, 0x10)]
        for _ in 0..<5000 {
            let hash = random.next() << (random.next() % 64)
            values.append((hash, Int(random.next() % (1 << UInt64(random.next() % 40)))))
        }
        for (hash, count) in values {
            let expected = "\"" + String(hash, radix: 16) + "-" + String(count, radix: 16) + "\""
            #expect(ETag.strong(hash: hash, count: count) == expected)
        }
    }

    /// The request line is split at exactly two spaces; anything else is the same error as before.
    @Test func theRequestLineNeedsExactlyTwoSpaces() throws {
        for line in ["GET /a HTTP/1.1 ", "GET  /a HTTP/1.1", "GET /a", "GET", " GET /a HTTP/1.1", "GET /a b HTTP/1.1"] {
            #expect(throws: HTTPParseError.badRequest("the request line is not METHOD TARGET VERSION")) {
                try HTTPParser.parseRequestLine(ArraySlice(line.utf8))
            }
        }
        let request = try HTTPParser.parseRequestLine(ArraySlice("HEAD /a/1/2/3.png?x=1 HTTP/1.0".utf8))
        #expect(request.method == "HEAD")
        #expect(request.path == "/a/1/2/3.png")
        #expect(request.query == "x=1")
        #expect(request.minorVersion == 0)
        #expect(HTTPRequest.split("/a/b.png") == ("/a/b.png", ""))
        #expect(HTTPRequest.split("/a/b.png#frag") == ("/a/b.png", ""))
    }

    /// Fields are found by name in any case, and only those decide keep-alive, Host and bodies.
    @Test func theFieldsThatMatterAreFoundInAnyCase() throws {
        func parse(_ head: String) throws(HTTPParseError) -> HTTPRequest? {
            var parser = HTTPParser()
            return try parser.parse(ArraySlice(head.utf8))?.request
        }
        #expect(try parse("GET / HTTP/1.1\r\nhOsT: a\r\n\r\n")?.keepAlive == true)
        #expect(try parse("GET / HTTP/1.1\r\nHost: a\r\nCONNECTION: Keep-Alive, Close\r\n\r\n")?.keepAlive == false)
        #expect(try parse("GET / HTTP/1.0\r\nconnection: keep-alive\r\n\r\n")?.keepAlive == true)
        #expect(try parse("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(try parse("GET / HTTP/1.1\r\nHost: a\r\ncontent-length: 0\r\n\r\n")?.hasBody == false)
        #expect(try parse("GET / HTTP/1.1\r\nHost: a\r\nContent-length: 3\r\n\r\nabc")?.hasBody == true)
        #expect(try parse("GET / HTTP/1.1\r\nHost: a\r\ntransfer-encoding: chunked\r\n\r\n")?.hasBody == true)
        #expect(throws: HTTPParseError.badRequest("HTTP/1.1 needs exactly one Host field")) {
            try parse("GET / HTTP/1.1\r\nHosts: a\r\n\r\n")
        }
        #expect(throws: HTTPParseError.badRequest("HTTP/1.1 needs exactly one Host field")) {
            try parse("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n")
        }
        #expect(throws: HTTPParseError.badRequest("invalid Content-Length")) {
            try parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        }
        #expect(throws: HTTPParseError.badRequest("both Transfer-Encoding and Content-Length")) {
            try parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")
        }
    }
}
