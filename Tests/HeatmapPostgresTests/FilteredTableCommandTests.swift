import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// `heatmap tile` and `info` on a table with `--time`, `--categories`, `--datetime` and
/// `--category` (issue 28's first Done-when for PostgreSQL): the intensities equal those of a
/// file of exactly the rows kept.
@Suite(.serialized, .needsPostgres) struct FilteredTableCommandTests {
    /// The intensities `heatmap tile ARGS --format intensity` writes.
    static func intensities(_ arguments: [String]) throws -> [Float] {
        let path = HeatmapCommand.temporaryPath("tile.f32")
        let run = try HeatmapCommand.run(arguments + ["--format", "intensity", "--output", path])
        #expect(run.status == 0, "\(arguments): \(run.standardError)")
        guard run.status == 0, FileManager.default.fileExists(atPath: path) else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = [UInt8](data)
        var values: [Float] = []
        for i in stride(from: 0, to: bytes.count - 3, by: 4) {
            let low = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8
            let high = UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            values.append(Float(bitPattern: low | high))
        }
        return values
    }

    @Test("tile --postgres --datetime --category --format intensity equals the file of exactly the rows kept")
    func tileEqualsBruteForce() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        try FilteredTableTests.makeTable("filtered_command", on: connection)
        let window = try TimeWindow(parsing: "2024-02-10T05:00:00Z/2024-09-01")
        let kept = FilteredTableTests.kept(window: window, keep: { $0.kind == "theft" || $0.kind == "arson" })
        let file = try HeatmapCommand.csv(kept)
        let table = [
            "--postgres", cluster.url, "--table", "filtered_command", "--time", "t", "--categories", "kind,n",
            "--datetime", "2024-02-10T05:00:00Z/2024-09-01", "--category", "kind:theft,arson",
        ]
        for tile in ["0/0/0", "6/57/39@2x", "3/7/4"] {
            let a = try Self.intensities(["tile"] + table + [tile])
            let b = try Self.intensities(["tile", file, tile])
            #expect(a.count == b.count && !a.isEmpty, "tile \(tile)")
            let worst = zip(a, b).map { abs($0 - $1) / max(abs($1), 1e-30) }.max() ?? 0
            #expect(worst <= 1e-5, "tile \(tile): \(worst)")
        }
        // A value no row holds, a column not given: errors naming them; a window of no rows: no tile.
        let none = try HeatmapCommand.run(["tile"] + table.dropLast(2) + ["--category", "kind:fraud", "0/0/0"])
        #expect(none.status != 0 && none.standardError.contains("fraud"))
        let empty = try HeatmapCommand.run(
            ["tile"] + table.prefix(8) + [
                "--datetime", "1999-01-01/2000-01-01", "0/0/0", "--output",
                HeatmapCommand.temporaryPath("empty.png"),
            ])
        #expect(empty.standardError.contains("no tile") || empty.status != 0)
    }

    /// Expects each of `tiles` that `server` answers for `layer` with
    /// `?datetime=2024-02-10T05:00:00Z/2024-09-01&category=kind:theft,arson&category=n:1,2,3` to
    /// be the PNG `heatmap tile` draws of `table` (its arguments) with the same filters; the answers.
    static func expectServedTiles(_ server: ServeProcess, layer: String, table: [String], tiles: [String])
        async throws -> [[UInt8]]
    {
        let query = "datetime=2024-02-10T05:00:00Z/2024-09-01&category=kind:theft,arson&category=n:1,2,3"
        var bodies: [[UInt8]] = []
        for tile in tiles {
            let served = try await LoopbackHTTP.get(server.base + "/\(layer)/\(tile).png?\(query)")
            #expect(served.status == 200)
            let path = HeatmapCommand.temporaryPath("tile.png")
            let run = try HeatmapCommand.run(
                ["tile"] + table + [
                    "--datetime", "2024-02-10T05:00:00Z/2024-09-01", "--category", "kind:theft,arson", "--category",
                    "n:1,2,3", tile, "--output", path,
                ])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(served.body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), "tile \(tile)")
            bodies.append(served.body)
        }
        return bodies
    }

    @Test("serve --postgres: ?datetime=&category= tiles are the command's, 400 naming a value no row holds, 204 empty")
    func servedTilesEqualCommand() async throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        try FilteredTableTests.makeTable("filtered_command", on: connection)
        let table = ["--postgres", cluster.url, "--table", "filtered_command", "--time", "t", "--categories", "kind,n"]
        let server = try ServeProcess(table)
        _ = try await Self.expectServedTiles(
            server, layer: "filtered_command", table: table, tiles: ["6/57/39", "0/0/0"])
        let unknown = try await LoopbackHTTP.get(server.base + "/filtered_command/0/0/0.png?category=kind:fraud")
        #expect(unknown.status == 400)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("fraud"))
        let empty = try await LoopbackHTTP.get(
            server.base + "/filtered_command/0/0/0.png?datetime=1999-01-01/2000-01-01")
        #expect(empty.status == 204)
        _ = server.stop()
    }
}
