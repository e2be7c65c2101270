import Foundation
import HeatmapKit

/// Live points through the server (`--only live-serve`): `heatmap serve` over the benchmark's
/// points, a `POST /{layer}/points` of 1% more, the time until the next tile (a dense one per
/// zoom) reflects it, against a full rebuild (the data file read again on `SIGHUP`).
struct LiveServeMeasurement: Codable {
    var points: Int
    var appended: Int
    /// `POST /{layer}/points` of the appended points as CSV, answered (read, indexed, the
    /// reached tiles dropped).
    var postMilliseconds: Double
    /// The cached tiles the POST dropped (reached by the points), of those cached before it.
    var tilesDropped: Int
    var tilesCached: Int
    /// After the POST, each dense tile asked once (M(z) computed again, then the tile).
    var nextTileMilliseconds: [String: Double]
    /// The same asked again: from the server's cache.
    var cachedTileMilliseconds: [String: Double]
    /// A sparse tile far from most points, asked after the POST: kept in the cache unless M(z)
    /// of its zoom moved.
    var farTileMilliseconds: Double
    /// The rebuild: the file with every point written, `SIGHUP`, until the server has read it.
    var reloadMilliseconds: Double
    /// After the reload, each dense tile asked once.
    var reloadedTileMilliseconds: [String: Double]
    /// Whether the tiles after the POST equal those after the reload, byte for byte.
    var sameTiles: Bool
}

enum LiveServeBenchmark {
    static func run(data: SyntheticData, tiles: [(zoom: Int, x: Int, y: Int)], seed: UInt64, log: (String) -> Void)
        throws -> LiveServeMeasurement
    {
        let points = data.points
        let added = SyntheticData(count: max(1, points.count / 100), seed: seed &+ 1).points
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("heatmap").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw OptionError("live serve: no heatmap next to heatmap-bench (\(binary)): build it too")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-bench-live-\(seed)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("live_bench.csv")
        let token = directory.appendingPathComponent("token")
        try Data(csv(points).utf8).write(to: file)
        try Data("live-bench-token\n".utf8).write(to: token)
        let port = HTTPProbe.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "serve", file.path, "--port", "\(port)", "--host", "127.0.0.1", "--no-watch", "--write-token-file",
            token.path, "--max-body-mb", "64",
        ]
        let logFile = directory.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: logFile)
        server.standardOutput = output
        server.standardError = output
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        guard HTTPProbe.waitUntilAnswered(port: port, path: "/live_bench.json", seconds: 120) else {
            throw OptionError("live serve: the server did not answer within 120 s")
        }
        func path(_ t: (zoom: Int, x: Int, y: Int)) -> String { "/live_bench/\(t.zoom)/\(t.x)/\(t.y).png" }
        let far = "/live_bench/6/2/40.png"  // the Pacific, west of the data: nothing near
        for t in tiles { _ = try HTTPProbe.request(port: port, path: path(t)) }
        _ = try HTTPProbe.request(port: port, path: far)
        let cachedBefore = try metric(port: port, "heatmap_tile_cache_entries")
        var answer: (status: Int, body: [UInt8]) = (0, [])
        let body = Array(csv(added).utf8)
        let post = try Measure.seconds {
            answer = try HTTPProbe.request(
                port: port, method: "POST", path: "/live_bench/points",
                headers: ["Authorization: Bearer live-bench-token", "Content-Type: text/csv"], body: body)
        }
        guard answer.status == 200 else {
            throw OptionError(
                "live serve: POST answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        let dropped = text.range(of: "\"tilesDropped\": ").flatMap {
            Int(text[$0.upperBound...].prefix { $0.isNumber })
        }
        var next: [String: Double] = [:]
        var cached: [String: Double] = [:]
        var bytes: [String: [UInt8]] = [:]
        for t in tiles {
            next[path(t)] =
                try Measure.seconds { bytes[path(t)] = try HTTPProbe.request(port: port, path: path(t)).body } * 1000
            cached[path(t)] = try Measure.seconds { _ = try HTTPProbe.request(port: port, path: path(t)) } * 1000
        }
        let farMs = try Measure.seconds { _ = try HTTPProbe.request(port: port, path: far) } * 1000
        // The rebuild: every point in the file, read again on SIGHUP.
        try Data(csv(points + added).utf8).write(to: file)
        let reloads = try metric(port: port, "heatmap_reloads_total")
        let reload = try Measure.seconds {
            kill(server.processIdentifier, SIGHUP)
            let deadline = Measure.now() + 300
            while try metric(port: port, "heatmap_reloads_total") <= reloads, Measure.now() < deadline {
                usleep(5_000)
            }
        }
        var reloaded: [String: Double] = [:]
        var same = true
        for t in tiles {
            var again: [UInt8] = []
            reloaded[path(t)] =
                try Measure.seconds { again = try HTTPProbe.request(port: port, path: path(t)).body } * 1000
            same = same && again == bytes[path(t)]
        }
        let result = LiveServeMeasurement(
            points: points.count, appended: added.count, postMilliseconds: post * 1000, tilesDropped: dropped ?? -1,
            tilesCached: Int(cachedBefore), nextTileMilliseconds: next, cachedTileMilliseconds: cached,
            farTileMilliseconds: farMs, reloadMilliseconds: reload * 1000, reloadedTileMilliseconds: reloaded,
            sameTiles: same)
        log(
            String(
                format:
                    "live serve: POST %d to %d points %.1f ms (%d of %d cached tiles dropped); reload %.0f ms; same tiles: %@",
                added.count, points.count, result.postMilliseconds, result.tilesDropped, result.tilesCached,
                result.reloadMilliseconds, same ? "yes" : "NO"))
        for t in tiles {
            log(
                String(
                    format:
                        "live serve: next tile %@ %.1f ms after the POST (cached %.2f ms), %.1f ms after the reload",
                    path(t), next[path(t)] ?? 0, cached[path(t)] ?? 0, reloaded[path(t)] ?? 0))
        }
        return result
    }

    static func csv(_ points: [WeightedLatLng]) -> String {
        var text = "lat,lng,weight\n"
        text.reserveCapacity(points.count * 40)
        for p in points { text += "\(p.coordinate.latitude),\(p.coordinate.longitude),\(p.intensity)\n" }
        return text
    }

    /// A gauge or counter of /metrics (-1 if missing).
    static func metric(port: Int, _ name: String) throws -> Double {
        let text = String(decoding: try HTTPProbe.request(port: port, path: "/metrics").body, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }
}
