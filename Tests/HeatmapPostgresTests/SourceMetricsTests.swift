import Foundation
import HeatmapKit
import HeatmapServer
import Testing

@testable import HeatmapPostgres

/// `/metrics` counts the source's timeouts and its other failures apart, through the server.
@Suite(.serialized, .needsPostgres) struct SourceMetricsTests {
    /// The value of a counter without labels in a `/metrics` text, or `nil` when absent.
    static func counter(_ name: String, in text: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    @Test("a tile slower than the statement timeout and a failing query are 503s, counted apart in /metrics")
    func timeoutsAndErrors() async throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "metered", connection: cluster.conninfo, mode: .replace)
        let slow = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "metered", filter: "pg_sleep(0.3) IS NOT NULL"),
            statementTimeout: .milliseconds(50))
        let broken = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "metered", filter: "lat / (lat - lat) > 0"))
        let layers = try [
            ServedLayer(name: "slow", data: LayerData(source: slow, count: 1, bounds: nil)),
            ServedLayer(name: "broken", data: LayerData(source: broken, count: 1, bounds: nil)),
        ]
        let stats = ServerStats()
        let service = try TileService(layers: layers, options: ServerOptions(), stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(), responder: service, stats: stats)
        server.start()
        defer { server.shutdown(grace: 2) }
        let base = "http://127.0.0.1:\(server.port)"
        let before = String(decoding: try await ServedTableTests.get("\(base)/metrics").body, as: UTF8.self)
        #expect(Self.counter("heatmap_source_timeouts_total", in: before) == 0, "\(before)")
        #expect(Self.counter("heatmap_source_errors_total", in: before) == 0)
        #expect(try await ServedTableTests.get("\(base)/slow/7/115/78.png").status == 503)
        #expect(try await ServedTableTests.get("\(base)/slow/7/116/78.png").status == 503)
        let failed = try await ServedTableTests.get("\(base)/broken/7/115/78.png")
        #expect(failed.status == 503)
        // A filter that fails as it runs (a wrong one is refused when the source connects); the
        // SQL's error is for the server's log, not for HTTP clients.
        #expect(String(decoding: failed.body, as: UTF8.self).hasPrefix(SourceFailureLog.unavailableMessage))
        #expect(!String(decoding: failed.body, as: UTF8.self).contains("division"))
        let after = String(decoding: try await ServedTableTests.get("\(base)/metrics").body, as: UTF8.self)
        #expect(Self.counter("heatmap_source_timeouts_total", in: after) == 2, "\(after)")
        #expect(Self.counter("heatmap_source_errors_total", in: after) == 1, "\(after)")
        #expect((Self.counter("heatmap_errors_total", in: after) ?? 0) >= 3)
        #expect(!after.contains(TestCluster.password))
    }
}
