import Foundation
import HeatmapKit
import HeatmapPostgres

/// `heatmap serve --postgres` over a large imported table: the server's resident memory.
struct PostgresServeMeasurement: Codable {
    /// The table's rows.
    var rows: Int
    /// Seconds to import them (0 when the table was there from an earlier run).
    var importSeconds: Double
    /// Each tile asked for, in order: its path, status, bytes and milliseconds (M(z) included
    /// for the first tile of a zoom: the server answers 503 until it has it, and the tile is
    /// asked again until it comes, for up to 2 minutes).
    var tiles: [ServedTile]
    /// The server's resident memory once it answers, before any tile.
    var startResidentBytes: Int
    /// Its resident memory after every tile was asked for twice (the second time cached).
    var steadyResidentBytes: Int
    /// The most it held at any time (Linux's VmHWM).
    var peakResidentBytes: Int
}

/// One tile asked of the server.
struct ServedTile: Codable {
    var path: String
    var status: Int
    var bytes: Int
    var milliseconds: Double
    var residentBytes: Int
}

enum PostgresServeBenchmark {
    /// Imports `rows` of the benchmark's data (seed `seed`) into `table` unless it holds them
    /// already, starts the `heatmap` next to this program serving it on a free port, asks for
    /// `tiles` twice and reads the server's memory from /proc.
    static func run(
        url: String, table: String, rows: Int, seed: UInt64,
        tiles: [(zoom: Int, scale: Int, kind: String, x: Int, y: Int)], log: (String) -> Void
    ) throws -> PostgresServeMeasurement {
        let conninfo = ConnectionString(url)
        let connection = try PostgresConnection(conninfo)
        let quoted = PostgresConnection.quoted(identifier: table)
        let present =
            try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).text(0, 0) == "t"
            ? try connection.execute("SELECT count(*) FROM \(quoted)").text(0, 0).flatMap { Int($0) } : nil
        var importSeconds = 0.0
        if present != rows {
            log("postgres serve: generating and importing \(rows) rows into \(table)")
            let data = SyntheticData(count: rows, seed: seed)
            let summary = try PostgresImport.run(points: data.points, into: table, connection: conninfo, mode: .replace)
            importSeconds = summary.duration.seconds
            log(
                String(format: "postgres serve: imported in %.1f s (%.0f rows/s)", importSeconds, summary.rowsPerSecond)
            )
        }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("heatmap").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw OptionError("postgres serve: no heatmap next to heatmap-bench (\(binary)): build it too")
        }
        let port = HTTPProbe.freePort()
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-bench-serve-\(port).log")
        _ = FileManager.default.createFile(atPath: logPath.path, contents: nil)
        let output = try FileHandle(forWritingTo: logPath)
        defer { try? FileManager.default.removeItem(at: logPath) }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "serve", "--postgres", url, "--table", table, "--port", "\(port)", "--host", "127.0.0.1",
        ]
        server.standardOutput = output
        server.standardError = output
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let pid = server.processIdentifier
        guard HTTPProbe.waitUntilAnswered(port: port, path: "/\(table).json", seconds: 60) else {
            throw OptionError("postgres serve: the server did not answer within 60 s")
        }
        let start = Measure.resident(of: pid)
        var served: [ServedTile] = []
        for round in 0..<2 {
            for t in tiles {
                let path = "/\(table)/\(t.zoom)/\(t.x)/\(t.y)\(t.scale == 1 ? "" : "@\(t.scale)x").png"
                var answer: (status: Int, bytes: Int)?
                // 503 while the server computes the zoom's M(z): asked again, for up to 2 minutes.
                let seconds = try Measure.seconds {
                    let deadline = Measure.now() + 120
                    repeat {
                        answer = try HTTPProbe.get(port: port, path: path)
                        if answer?.status == 503 { usleep(250_000) }
                    } while answer?.status == 503 && Measure.now() < deadline
                }
                let tile = ServedTile(
                    path: path, status: answer?.status ?? 0, bytes: answer?.bytes ?? 0, milliseconds: seconds * 1000,
                    residentBytes: Measure.resident(of: pid).resident)
                if round == 0 {
                    served.append(tile)
                    log(
                        String(
                            format: "postgres serve %@: %d, %d B, %.0f ms, %.0f MB resident", path, tile.status,
                            tile.bytes, tile.milliseconds, Double(tile.residentBytes) / 1e6))
                }
            }
        }
        let end = Measure.resident(of: pid)
        return PostgresServeMeasurement(
            rows: rows, importSeconds: importSeconds, tiles: served, startResidentBytes: start.resident,
            steadyResidentBytes: end.resident, peakResidentBytes: end.peak)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
