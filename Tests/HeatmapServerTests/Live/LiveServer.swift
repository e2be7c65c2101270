import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport

/// A server on a free loopback port over points given (written to a CSV file and loaded as
/// `heatmap serve` loads files), taking `POST`/`DELETE /live/points` with ``secret``.
final class LiveServer: Sendable {
    static let secret = "t0ken-live-invalidate"
    let service: TileService
    let server: HTTPServer
    var port: Int { server.port }
    let layer: ServedLayer

    init(_ points: [WeightedLatLng], minZoom: Int = 0, chunkedLimit: Int = 1 << 20) throws {
        var options = ServerOptions()
        options.writeToken = try WriteToken(Self.secret)
        options.minZoom = minZoom
        var limits = HTTPLimits()
        limits.maxBodyBytes = chunkedLimit
        limits.bodiesNeedToken = true
        limits.bodyToken = options.writeToken
        let path = TestScratch.folder.appendingPathComponent(
            "live-\(UUID().uuidString).csv"
        ).path
        try Array(Self.csv(points).utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        layer = try ServedLayer(name: "live", data: try LayerData.load(path: path))
        let stats = ServerStats()
        service = try TileService(layers: [layer], options: options, stats: stats)
        server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, responder: service, stats: stats)
        server.start()
    }

    static func csv(_ points: [WeightedLatLng]) -> String {
        "lat,lng,weight\n"
            + points.map { "\($0.coordinate.latitude),\($0.coordinate.longitude),\($0.intensity)\n" }.joined()
    }

    func client() throws -> TestClient { try TestClient(port: port, timeout: 20) }

    func stop() {
        server.shutdown(grace: 2)
        server.waitUntilStopped()
    }

    /// `POST` (or `DELETE`) of points as CSV; the answer.
    func change(_ points: [WeightedLatLng], method: String = "POST") throws -> TestClient.Response {
        let body = Array(Self.csv(points).utf8)
        let client = try client()
        try client.send(
            Array(
                ("\(method) /live/points HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
                    + "Authorization: Bearer \(Self.secret)\r\nContent-Type: text/csv\r\n\r\n").utf8) + body)
        return try client.read()
    }

    /// One metric's value from /metrics.
    func metric(_ name: String) throws -> Double {
        let text = try client().get("/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }

    /// A number from a JSON answer: `"name": N`.
    static func number(_ name: String, in text: String) -> Int? {
        guard let range = text.range(of: "\"\(name)\": ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}

/// Seeded points: two dense clusters (whole weights, so sums are exact whatever the order).
func clusteredPoints(seed: UInt64 = 7) -> [WeightedLatLng] {
    var random = SplitMix64(seed: seed)
    var points: [WeightedLatLng] = []
    for (latitude, longitude, count) in [(10.0, 10.0, 300), (-30.0, -60.0, 200)] {
        for _ in 0..<count {
            points.append(
                WeightedLatLng(
                    coordinate: Coordinate(
                        latitude: latitude + Double.random(in: -3...3, using: &random),
                        longitude: longitude + Double.random(in: -3...3, using: &random)),
                    intensity: Double(Int.random(in: 1...3, using: &random))))
        }
    }
    return points
}
