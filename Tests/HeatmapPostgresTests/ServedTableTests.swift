import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A table served over HTTP: the layer named after it, 503 while the database is down.
@Suite(.serialized, .needsPostgres) struct ServedTableTests {
    static func get(_ url: String) async throws -> LoopbackHTTP.Answer { try await LoopbackHTTP.get(url) }

    @Test("tiles from a table over HTTP; 503 with the database down, cached tiles still 200, counted in /metrics")
    func servedAndLost() async throws {
        _ = try TestCluster.require()
        let cluster = try TestCluster()
        defer { cluster.stop() }
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "crimes", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "crimes"))
        let summary = try source.summary()
        #expect(summary.rows == LiveDataTests.points.count)
        let layer = try ServedLayer(
            name: "crimes", data: LayerData(source: source, count: summary.rows, bounds: summary.bounds))
        let stats = ServerStats()
        let service = try TileService(layers: [layer], options: ServerOptions(), stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(), responder: service, stats: stats)
        server.start()
        defer { server.shutdown(grace: 2) }
        let base = "http://127.0.0.1:\(server.port)"
        let first = try await Self.get("\(base)/crimes/7/115/78.png")
        #expect(first.status == 200)
        let memory = HeatmapTileLayer(index: try PointIndex(points: LiveDataTests.points))
        #expect(try memory.tileFor(x: 115, y: 78, zoom: 7).png == Array(first.body))
        let tileJSON = try await Self.get("\(base)/crimes.json")
        let text = String(decoding: tileJSON.body, as: UTF8.self)
        #expect(text.contains("\"points\":\(LiveDataTests.points.count)"))
        #expect(!text.contains(TestCluster.password))
        try cluster.stopServer()
        #expect(try await Self.get("\(base)/crimes/7/115/78.png").status == 200, "cached")
        let lost = try await Self.get("\(base)/crimes/6/57/39.png")
        #expect(lost.status == 503)
        #expect(!String(decoding: lost.body, as: UTF8.self).contains(TestCluster.password))
        let metrics = String(decoding: try await Self.get("\(base)/metrics").body, as: UTF8.self)
        #expect(metrics.contains("status=\"503\"} 1"))
        #expect(!metrics.contains(TestCluster.password))
        try cluster.start()
        var status = 0
        for _ in 0..<100 where status != 200 {
            status = try await Self.get("\(base)/crimes/6/57/39.png").status
            if status != 200 { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(status == 200, "back after the backoff")
    }
}
