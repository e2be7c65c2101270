import Foundation
import Testing

/// Targets that must never name a file or a cache entry: dot segments (plain or encoded),
/// encoded slashes, backslashes and NUL, malformed and overlong percent-encodings, in the path
/// and in the query; each is refused with a reason, and the server answers on.
@Suite struct HardeningTargetTests {
    @Test(arguments: [
        "/police/./6/57/39.png", "/police/../police/6/57/39.png", "/police/%2E%2E/6/57/39.png",
        "/police/.%2e/6/57/39.png", "/police%2F6/57/39.png", "/police/6/%2f57/39.png", "/police/6/57/39%5C.png",
        "/police/6/57/39%00.png", "/police/6/57/39%C0%AE.png", "/police/%C0%AE%C0%AE/57/39.png",
        "/police/%E0%80%AE/57/39.png", "/police/6/57/39.png%", "/police/6/57/%zz.png", "/leaflet/%2e%2e/leaflet.js",
        "/..%2F..%2Fetc%2Fpasswd", "/police.json/..", "/%2e%2e/catalog",
    ])
    func pathsAreRefused(_ path: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let response = try client.get(path)
        #expect(response.status == 404, "\(path): \(response.status) \(response.text)")
        #expect(response.text.contains("the path"), "\(path): \(response.text)")
        #expect(try client.get("/police/6/57/39.png").status == 200)
    }

    @Test(arguments: [
        "radius=%C0%AE", "gradient=fire%00", "%C0%AE=1", "opacity=%FF", "max=%E0%80%AF", "radius=3%", "radius=%2",
        "gradient=%0Afire", "radius=30&max=%ED%A0%80",
    ])
    func queriesAreRefused(_ query: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for path in ["/police/6/57/39.png", "/police.json"] {
            let response = try client.get(path + "?" + query)
            #expect(response.status == 400, "\(path)?\(query): \(response.status) \(response.text)")
            #expect(response.text.contains("the query"), "\(path)?\(query): \(response.text)")
        }
    }

    @Test func wellFormedEncodingsStillWork() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let plain = try client.get("/police/6/57/39.png?gradient=0000ff:0.2,ff0000:1")
        let encoded = try client.get("/police/6/57/39.png?gradient=0000ff%3A0.2%2Cff0000%3A1")
        #expect(plain.status == 200 && encoded.status == 200 && plain.body == encoded.body)
        #expect(try client.get("/police/6/57/39.png?radius=30&note=%F0%9F%94%A5").status == 200)
    }
}
