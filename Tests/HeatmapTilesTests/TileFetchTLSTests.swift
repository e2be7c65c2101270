import Foundation
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

#if canImport(CCurl)

    /// https through the command's fetch backend: a loopback TLS upstream (a certificate made with
    /// `openssl`, served by Python's `ssl`) answers when its authority is trusted, and is refused
    /// when it is not (the system's authorities do not know it): certificates are verified.
    @Suite(
        .enabled(if: TileFetchBackend.shared != nil, "the platform fetches with URLSession (no libcurl backend)"),
        .enabled(
            if: TestProgram.program("openssl") != nil && TestProgram.program("python3") != nil,
            "needs openssl and python3")
    )
    struct TileFetchTLSTests {
        static let server = """
            import http.server, os, ssl, sys
            class H(http.server.BaseHTTPRequestHandler):
                def log_message(self, *a): pass
                def do_GET(self):
                    body = open(sys.argv[3], "rb").read()
                    self.send_response(200); self.send_header("Content-Type", "image/png")
                    self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            s = http.server.HTTPServer(("127.0.0.1", 0), H)
            c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); c.load_cert_chain(sys.argv[1], sys.argv[2])
            s.socket = c.wrap_socket(s.socket, server_side=True)
            open(sys.argv[4] + ".part", "w").write(str(s.server_address[1]))
            os.replace(sys.argv[4] + ".part", sys.argv[4])
            s.serve_forever()
            """

        @Test("https: a trusted certificate gives the PNG, an unknown one gives nothing")
        func https() async throws {
            let folder = try TemporaryFolder("tls")
            defer { folder.remove() }
            let openssl = try #require(TestProgram.program("openssl"))
            let made = try TestProgram.run(
                openssl,
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder.file("key.pem"), "-out",
                    folder.file("cert.pem"),
                ])
            try #require(made.status == 0, "openssl: \(made)")
            let png = try Upstream.solidPNG(side: 256, red: 9, green: 8, blue: 7, alpha: 255)
            try folder.write(png, to: "tile.png")
            try folder.write(Array(Self.server.utf8), to: "server.py")
            let python = try #require(TestProgram.program("python3"))
            let process = Process()
            process.executableURL = python
            process.arguments = [
                folder.file("server.py"), folder.file("cert.pem"), folder.file("key.pem"), folder.file("tile.png"),
                folder.file("port"),
            ]
            try process.run()
            defer {
                // SIGKILL: a child of the test process may be started with SIGTERM blocked.
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            let portFile = folder.file("port")
            try #require(eventually(within: 30) { FileManager.default.fileExists(atPath: portFile) })
            let text = try String(contentsOfFile: portFile, encoding: .utf8)
            let port = try #require(Int(text), "python wrote \(text)")
            let url = try #require(URL(string: "https://127.0.0.1:\(port)/1/0/0.png"))
            let trusting = CurlTileFetcher(certificates: folder.file("cert.pem"))
            #expect(await trusting.get(url, timeout: 10, maximumBytes: 1 << 20) == TileResponse(status: 200, body: png))
            #expect(await CurlTileFetcher().get(url, timeout: 10, maximumBytes: 1 << 20) == nil)
        }
    }
#endif
