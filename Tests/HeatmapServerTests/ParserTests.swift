import HeatmapServer
import Testing

@Suite struct ParserTests {
    func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) throws(HTTPParseError) -> HTTPParser.Parsed? {
        var parser = HTTPParser(limits: limits)
        return try parser.parse(ArraySlice(Array(text.utf8)))
    }

    @Test func parsesARequestHead() throws {
        let text =
            "GET /police/6/57/39.png?radius=30&gradient=fire HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"a\"\r\n\r\nGET"
        let parsed = try #require(try parse(text))
        #expect(parsed.consumed == text.utf8.count - 3)
        #expect(parsed.request.method == "GET")
        #expect(parsed.request.path == "/police/6/57/39.png")
        #expect(parsed.request.query == "radius=30&gradient=fire")
        #expect(parsed.request.queryItems.map(\.name) == ["radius", "gradient"])
        #expect(parsed.request.headers.first("if-none-match") == "\"a\"")
        #expect(parsed.request.keepAlive)
        #expect(!parsed.request.hasBody)
    }

    @Test func waitsForTheWholeHeadByteByByte() throws {
        let bytes = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var parser = HTTPParser()
        for end in 1..<bytes.count { #expect(try parser.parse(ArraySlice(bytes[0..<end])) == nil) }
        let parsed = try #require(try parser.parse(ArraySlice(bytes)))
        #expect(parsed.consumed == bytes.count)
    }

    @Test func acceptsBareLineFeedsAndLeadingEmptyLines() throws {
        let parsed = try #require(try parse("\r\nGET /health HTTP/1.1\nHost: x\n\n"))
        #expect(parsed.request.path == "/health")
    }

    @Test func connectionSemanticsFollowTheVersion() throws {
        #expect(try parse("GET / HTTP/1.0\r\n\r\n")?.request.keepAlive == false)
        #expect(try parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")?.request.keepAlive == true)
        #expect(try parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n")?.request.keepAlive == false)
    }

    @Test(
        "close wins over keep-alive, in one field or two, in HTTP/1.0 and 1.1",
        arguments: [
            "Connection: keep-alive\r\nConnection: close\r\n", "Connection: close\r\nConnection: keep-alive\r\n",
            "Connection: keep-alive, close\r\n", "Connection: close, keep-alive\r\n",
            "Connection: Keep-Alive,CLOSE\r\n",
            "Connection: upgrade\r\nConnection: keep-alive , close \r\n",
        ])
    func closeWins(fields: String) throws {
        for version in ["1.0", "1.1"] {
            let request = try #require(try parse("GET / HTTP/\(version)\r\nHost: x\r\n\(fields)\r\n")).request
            #expect(request.keepAlive == false, "HTTP/\(version) with \(fields)")
        }
    }

    @Test func absoluteFormTargetsLoseTheirAuthority() throws {
        let parsed = try #require(try parse("GET http://example.com/catalog?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n"))
        #expect(parsed.request.path == "/catalog")
        #expect(parsed.request.query == "x=1")
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\n\r\n",  // no Host
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET noslash HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTX/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\u{01}\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 2\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /\u{7f} HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    func refusesMalformedHeadsWith400(_ text: String) {
        #expect(throws: HTTPParseError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.status == .badRequest, "\(text.debugDescription): \(error)")
        }
    }

    @Test func refusesOtherVersionsWith505() {
        #expect(throws: HTTPParseError.versionNotSupported("HTTP/2.0")) {
            try parse("GET / HTTP/2.0\r\nHost: x\r\n\r\n")
        }
    }

    @Test func enforcesTheRequestLineLimit() throws {
        var limits = HTTPLimits()
        limits.maxRequestLine = 100
        let long = "GET /" + String(repeating: "a", count: 200)
        #expect(throws: HTTPParseError.requestLineTooLong(limit: 100)) { try parse(long, limits: limits) }
        #expect(throws: HTTPParseError.requestLineTooLong(limit: 100)) {
            try parse(long + " HTTP/1.1\r\nHost: x\r\n\r\n", limits: limits)
        }
        #expect(
            try parse("GET /" + String(repeating: "a", count: 80) + " HTTP/1.1\r\nHost: x\r\n\r\n", limits: limits)
                != nil)
    }

    @Test func enforcesHeaderSizeAndCount() throws {
        var limits = HTTPLimits()
        limits.maxHeaderBytes = 1000
        limits.maxHeaderCount = 10
        let big = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "b", count: 2000) + "\r\n\r\n"
        #expect(throws: HTTPParseError.self) { try parse(big, limits: limits) }
        #expect(throws: HTTPParseError.self) { try parse(String(big.dropLast(4)), limits: limits) }
        let many = "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<10).map { "X-\($0): y\r\n" }.joined() + "\r\n"
        #expect(throws: HTTPParseError.headersTooLarge("more than 10 fields")) { try parse(many, limits: limits) }
        let nine = "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<9).map { "X-\($0): y\r\n" }.joined() + "\r\n"
        #expect(try parse(nine, limits: limits)?.request.headers.count == 10)
    }

    @Test func notesBodies() throws {
        #expect(try parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")?.request.hasBody == true)
        #expect(try parse("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")?.request.hasBody == false)
        #expect(try parse("PUT / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")?.request.hasBody == true)
    }

    @Test func decodesQueryItems() {
        let request = HTTPRequest(method: "GET", target: "/a?gradient=%23ff0000%3A1&x=a+b&bad=%zz&=v")
        let items = request.queryItems
        #expect(items.count == 4)
        #expect(items[0].value == "#ff0000:1")
        #expect(items[1].value == "a b")
        #expect(items[2].value == "")
    }
}
