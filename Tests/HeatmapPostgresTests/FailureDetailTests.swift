import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Synchronization
import Testing

@testable import HeatmapPostgres

/// A database that fails while served: HTTP clients get a plain sentence, never its host, port,
/// user, table, SQL or libpq's text; the detail goes to the server's log once per episode.
@Suite(.serialized, .needsPostgres) struct FailureDetailTests {
    /// Words of the connection's detail that no HTTP answer may hold.
    static func leaks(_ text: String, cluster: TestCluster) -> [String] {
        ["127.0.0.1", String(cluster.port), "postgres", "PostgreSQL", "connect", TestCluster.password, "SQL"]
            .filter { text.contains($0) }
    }

    @Test("the database stopped mid-serve: tiles, legends, stacks and images 503 with a plain body, logged once")
    func stoppedMidServe() async throws {
        _ = try TestCluster.require()
        let cluster = try TestCluster()
        defer { cluster.stop() }
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "crimes", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "crimes"))
        let summary = try source.summary()
        let layer = try ServedLayer(
            name: "crimes", data: LayerData(source: source, count: summary.rows, bounds: summary.bounds))
        let lines = Mutex<[String]>([])
        var options = ServerOptions()
        options.sourceFailureLog = { line in lines.withLock { $0.append(line) } }
        let stats = ServerStats()
        let service = try TileService(
            layers: [layer], stacks: [StackDefinition(name: "both", layers: ["crimes"])], options: options,
            stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(), responder: service, stats: stats)
        server.start()
        defer { server.shutdown(grace: 2) }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try await LoopbackHTTP.get("\(base)/crimes/7/115/78.png").status == 200)
        try cluster.stopServer()
        // Several new tiles while it is down: one episode, one line in the log.
        for (x, y) in [(57, 39), (56, 39), (57, 38), (56, 38)] {
            let lost = try await LoopbackHTTP.get("\(base)/crimes/6/\(x)/\(y).png")
            let body = String(decoding: lost.body, as: UTF8.self)
            #expect(lost.status == 503)
            #expect(body.hasPrefix(SourceFailureLog.unavailableMessage), "\(body)")
            #expect(Self.leaks(body, cluster: cluster).isEmpty, "\(body)")
        }
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.contains("layer crimes") == true, "\(logged)")
        #expect(logged.first?.contains(String(cluster.port)) == true, "the detail stays in the log: \(logged)")
        #expect(logged.allSatisfy { !$0.contains(TestCluster.password) })
        // The other answers that reach the database.
        for path in [
            "/crimes/legend.json?z=5", "/crimes/legend.png?z=5", "/both/5/28/19.png", "/crimes+crimes/5/28/18.png",
            "/static/crimes/145,-37.8,5/64x64.png", "/both/legend.json?z=5",
        ] {
            let answer = try await LoopbackHTTP.get(base + path)
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect([200, 503].contains(answer.status), "\(path): \(answer.status) \(body)")
            #expect(Self.leaks(body, cluster: cluster).isEmpty, "\(path): \(body)")
        }
        for path in ["/crimes.json", "/metrics", "/health", "/", "/catalog"] {
            let body = String(decoding: try await LoopbackHTTP.get(base + path).body, as: UTF8.self)
            #expect(!body.contains(String(cluster.port)) && !body.contains(TestCluster.password), "\(path)")
            #expect(!body.contains("could not"), "\(path)")
        }
        #expect(lines.withLock { $0.count } <= 4, "one line an episode of each layer and stack")
        try cluster.start()
        var status = 0
        for _ in 0..<100 where status != 200 {
            status = try await LoopbackHTTP.get("\(base)/crimes/6/57/39.png").status
            if status != 200 { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(status == 200, "back after the backoff")
        #expect(lines.withLock { $0.contains { $0.contains("layer crimes: the source answers again") } })
    }
}
