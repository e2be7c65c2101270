import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTiles
import Testing

/// `Content-Encoding` of a `POST /{layer}/points` body: gzip must be gzip, other codings 415.
@Suite struct LivePointsEncodingTests {
    @Test("a body labelled gzip that is not gzip is 400 naming the encoding, and nothing is applied")
    func gzipLabelNotGzip() throws {
        let server = try LivePointsTests.server()
        defer { server.stop() }
        let client = try server.client()
        let before = try client.get("/police/7/115/78.png")
        for label in ["gzip", "x-gzip", "GZIP", "identity, gzip"] {
            var headers = LivePointsTests.authorized
            headers["Content-Encoding"] = label
            let response = try LivePointsTests.send(
                client, "POST", "/police/points", body: LivePointsTests.melbourne, headers: headers)
            #expect(response.status == 400, "\(label)")
            #expect(response.text.hasPrefix("request body: Content-Encoding is gzip"), "\(label)")
            #expect(response.text.contains("starts with bytes 6c 61"), "\(label)")
        }
        #expect(try client.get("/police/7/115/78.png").body == before.body)
        // The same body compressed is read.
        var headers = LivePointsTests.authorized
        headers["Content-Encoding"] = "gzip"
        let zipped = try #require(Gzip.compress(LivePointsTests.melbourne))
        let added = try LivePointsTests.send(client, "POST", "/police/points", body: zipped, headers: headers)
        #expect(added.status == 200)
        #expect(added.text.contains("\"added\": 1"))
        // Without a coding, a gzip body is still found by the readers.
        let removed = try LivePointsTests.send(
            client, "DELETE", "/police/points", body: zipped, headers: LivePointsTests.authorized)
        #expect(removed.status == 200)
        #expect(try client.get("/police/7/115/78.png").body == before.body)
    }

    @Test("codings other than one gzip are 415, in one field or several")
    func otherCodings() throws {
        let server = try LivePointsTests.server()
        defer { server.stop() }
        let zipped = try #require(Gzip.compress(LivePointsTests.melbourne))
        for label in ["br", "deflate", "gzip, gzip", "gzip, br", "compress", ""] {
            var headers = LivePointsTests.authorized
            headers["Content-Encoding"] = label
            let response = try LivePointsTests.send(
                try server.client(), "POST", "/police/points", body: zipped, headers: headers)
            #expect(response.status == 415, "\(label)")
            #expect(response.text.contains("Content-Encoding"), "\(label)")
        }
        // Two fields, gzip then br: both count, so 415.
        let client = try server.client()
        let head =
            "POST /police/points HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(zipped.count)\r\n"
            + "Authorization: Bearer \(LivePointsTests.secret)\r\nContent-Type: text/csv\r\n"
            + "Content-Encoding: gzip\r\nContent-Encoding: br\r\n\r\n"
        try client.send(Array(head.utf8) + zipped)
        let response = try client.read()
        #expect(response.status == 415)
        #expect(response.text.contains("gzip, br"))
    }
}
