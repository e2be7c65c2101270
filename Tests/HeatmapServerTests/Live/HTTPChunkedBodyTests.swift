import HeatmapKit
import HeatmapServer
import Testing

/// Chunked request bodies (`Transfer-Encoding: chunked`): read whole within the body limit,
/// 413 past it, 400 for bad chunk syntax; through the server for `POST /{layer}/points`.
@Suite struct HTTPChunkedBodyTests {
    static func parser(limit: Int = 100) -> HTTPParser { HTTPBodyTests.parser(limit: limit) }

    static func request(_ chunks: String, coding: String = "chunked", version: String = "1.1") -> [UInt8] {
        Array("POST /p/points HTTP/\(version)\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n\(chunks)".utf8)
    }

    @Test("chunks arriving a byte at a time, with extensions and trailers, make the body; then the next request")
    func pieces() throws {
        let body = "5;name=value\r\nhello\r\nA\r\n, chunked!\r\n0\r\nX-Trailer: t\r\n\r\n"
        let bytes = Self.request(body) + Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var parser = Self.parser()
        let end = Self.request(body).count
        var parsed: HTTPParser.Parsed?
        for cut in 1...end {
            parsed = try parser.parse(bytes[0..<cut])
            if cut < end { #expect(parsed == nil, "at \(cut)") }
        }
        let request = try #require(parsed).request
        #expect(request.body == Array("hello, chunked!".utf8))
        #expect(parsed?.consumed == end)
        let next = try #require(try parser.parse(bytes[end...]))
        #expect(next.request.method == "GET")
        // Bare LF line ends are read as the head's are; an empty body is an empty array.
        var bare = Self.parser()
        #expect(try bare.parse(Self.request("3\nabc\n0\n\n")[0...])?.request.body == Array("abc".utf8))
        var empty = Self.parser()
        #expect(try empty.parse(Self.request("0\r\n\r\n")[0...])?.request.body == [])
    }

    @Test("chunks adding up past the limit are 413, however each is sized")
    func limit() throws {
        for chunks in ["6\r\n123456\r\n5\r\n", "B\r\n", "FFFFFFFFFFFFFFFF\r\n", "0000000000000010\r\n"] {
            var parser = Self.parser(limit: 10)
            #expect(throws: HTTPParseError.payloadTooLarge(limit: 10), "\(chunks)") {
                try parser.parse(Self.request(chunks)[0...])
            }
        }
        var exact = Self.parser(limit: 10)
        #expect(try exact.parse(Self.request("6\r\n123456\r\n4\r\n7890\r\n0\r\n\r\n")[0...])?.request.body?.count == 10)
    }

    @Test(
        "bad chunk syntax is 400",
        arguments: [
            "g\r\n", "\r\n", "-1\r\n", "0x5\r\nhello\r\n", "5\r\nhelloX\r\n", "5\r\nhello\rX", "5 x\r\nhello\r\n",
            "11111111111111111\r\n", "5;\u{01}\r\nhello\r\n", "0\r\nno colon\r\n\r\n", "0\r\n folded: x\r\n\r\n",
            "1" + String(repeating: " ", count: 5000) + "\r\n",
        ])
    func syntax(chunks: String) throws {
        var parser = Self.parser()
        #expect(throws: HTTPParseError.self) { try parser.parse(Self.request(chunks)[0...]) }
        var again = Self.parser()
        do {
            _ = try again.parse(Self.request(chunks)[0...])
        } catch {
            #expect(error.status == .badRequest, "\(chunks.debugDescription): \(error)")
        }
    }

    @Test("other transfer codings and HTTP/1.0 chunked bodies are 400; framing far longer than the data too")
    func codings() throws {
        for (coding, version) in [
            ("gzip, chunked", "1.1"), ("identity", "1.1"), ("chunked, chunked", "1.1"), ("chunked", "1.0"),
        ] {
            var parser = Self.parser()
            #expect(throws: HTTPParseError.self, "\(coding) \(version)") {
                try parser.parse(Self.request("0\r\n\r\n", coding: coding, version: version)[0...])
            }
        }
        // 70,000 empty extensions' worth of framing for one byte of data.
        let noisy = String(repeating: "1;\(String(repeating: "e", count: 100))\r\nx\r\n", count: 700)
        var parser = Self.parser(limit: 1 << 20)
        #expect(throws: HTTPParseError.self) { try parser.parse(Self.request(noisy)[0...]) }
    }

    @Test("POST /{layer}/points with a chunked body appends; past --max-body-mb 413; without the token 401")
    func throughTheServer() throws {
        let points = clusteredPoints()
        let server = try LiveServer(points, chunkedLimit: 4096)
        defer { server.stop() }
        let added = WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 10), intensity: 5)
        let csv = LiveServer.csv([added])
        let split = csv.utf8.count / 2
        let (first, second) = (String(csv.prefix(split)), String(csv.dropFirst(split)))
        let chunks =
            "\(String(first.utf8.count, radix: 16))\r\n\(first)\r\n\(String(second.utf8.count, radix: 16))\r\n\(second)\r\n0\r\n\r\n"
        let head =
            "POST /live/points HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: text/csv\r\n"
        let client = try server.client()
        try client.send(head + "Authorization: Bearer \(LiveServer.secret)\r\n\r\n" + chunks)
        let answer = try client.read()
        #expect(answer.status == 200 && answer.text.contains("\"added\": 1"), "\(answer.text)")
        let fresh = try LiveServer(points + [added])
        defer { fresh.stop() }
        #expect(try client.get("/live/3/4/3.png").body == (try fresh.client().get("/live/3/4/3.png").body))
        // Past the limit: 413 and the connection closed.
        let big = try server.client()
        let line = String(repeating: "1,1,1\n", count: 400)
        let chunk = "\(String(line.utf8.count, radix: 16))\r\n\(line)\r\n"
        try big.send(head + "Authorization: Bearer \(LiveServer.secret)\r\n\r\n" + chunk + chunk)
        #expect(try big.read().status == 413)
        #expect(big.isClosedByServer())
        // Without the token: 401 from the head, the body unread.
        let stranger = try server.client()
        try stranger.send(head + "\r\n" + chunk)
        #expect(try stranger.read().status == 401)
        #expect(stranger.isClosedByServer())
    }
}
