import Foundation
import HeatmapKit
import HeatmapServer

/// A tile server on a free loopback port over the police stations fixture, stopped by `stop()`.
final class TestServer: Sendable {
    let service: TileService
    let server: HTTPServer
    var port: Int { server.port }

    static func fixturePath() throws -> String {
        guard
            let url = Bundle.module.url(forResource: "police_stations", withExtension: "json", subdirectory: "Fixtures")
        else { throw TestClient.Failure(description: "fixture missing") }
        return url.path
    }

    /// As `heatmap serve` loads files.
    static func load(_ path: String) throws(LayerLoadError) -> LayerData {
        try LayerData.load(path: path)
    }

    init(
        limits: HTTPLimits = HTTPLimits(), options: ServerOptions = ServerOptions(),
        settings: HeatmapSettings = .default
    )
        throws
    {
        let path = try Self.fixturePath()
        let layer = try ServedLayer(name: "police", source: path, settings: settings, data: try Self.load(path))
        let stats = ServerStats()
        service = try TileService(layers: [layer], options: options, stats: stats)
        server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, responder: service, stats: stats)
        server.start()
    }

    func client(timeout: Double = 10) throws -> TestClient { try TestClient(port: port, timeout: timeout) }

    func stop() {
        server.shutdown(grace: 2)
        server.waitUntilStopped()
    }

    /// One metric's value from /metrics.
    func metric(_ name: String) throws -> Double? {
        let text = try client().get("/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }
}

/// The width of a PNG from its IHDR.
func pngWidth(_ bytes: [UInt8]) -> Int? {
    guard bytes.count > 24, bytes[0..<8] == [137, 80, 78, 71, 13, 10, 26, 10] else { return nil }
    return bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
}
