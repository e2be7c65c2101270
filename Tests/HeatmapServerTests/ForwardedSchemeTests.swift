import Foundation
import Testing

@testable import HeatmapServer

/// Behind an HTTPS proxy, TileJSON's and the catalog's URLs are `https://` when the proxy
/// says so (`X-Forwarded-Proto`, or `Forwarded: proto=`), and `http://` otherwise.
@Suite struct ForwardedSchemeTests {
    /// The first tile URL of `/police.json` asked with `headers`.
    static func tileURL(_ client: TestClient, _ headers: [String: String]) throws -> String {
        let answer = try client.get("/police.json", headers: headers)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        return try #require((json["tiles"] as? [String])?.first)
    }

    @Test(
        "the scheme follows the proxy's header, its first value only, and nothing else of it",
        arguments: [
            ([:], "http://127.0.0.1/"),
            (["X-Forwarded-Proto": "https"], "https://127.0.0.1/"),
            (["X-Forwarded-Proto": "HTTPS, http"], "https://127.0.0.1/"),
            (["X-Forwarded-Proto": "http, https"], "http://127.0.0.1/"),
            (["X-Forwarded-Proto": "javascript"], "http://127.0.0.1/"),
            (["Forwarded": "for=192.0.2.1;proto=https;by=203.0.113.4"], "https://127.0.0.1/"),
            (["Forwarded": "for=192.0.2.1;Proto=\"https\", proto=http"], "https://127.0.0.1/"),
            (["Forwarded": "proto=http, proto=https"], "http://127.0.0.1/"),
            (["Forwarded": "for=192.0.2.1"], "http://127.0.0.1/"),
        ])
    func scheme(headers: [String: String], prefix: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client(timeout: 60)
        let url = try Self.tileURL(client, headers)
        #expect(url.hasPrefix(prefix + "police/"), "\(headers): \(url)")
    }
}
