import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// Issue 28's filters over `heatmap import --shard … --time t --categories kind,n`, as a user
/// runs them: `tile`, `info`, `image` and `serve` with `--datetime` and `--category` give the
/// answers of a file of exactly the rows kept, and of the same table on one server, with the
/// same errors; `import --append` through the coordinator copies the columns too.
extension ShardingTests {
    /// Imports the filter test rows by the command over the suite's shards into `table`; the
    /// arguments that name the table with its columns.
    static func importedByCommand(_ table: String, _ cluster: ShardedCluster, append: Bool = false) throws -> [String] {
        let file = try FilteredTableOutputTests.rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let coordinator = cluster.coordinator.url
        let target = append ? ["--append"] : ["--replace"] + cluster.shards.flatMap { ["--shard", $0.url] }
        let run = try HeatmapCommand.run(
            ["import", file, "--postgres", coordinator, "--table", table, "--time", "t", "--categories", "kind,n"]
                + target)
        #expect(run.status == 0, "\(run.standardError)")
        return ["--postgres", coordinator, "--table", table, "--time", "t", "--categories", "kind,n"]
    }

    /// `heatmap info ARGS --json`, parsed.
    static func info(_ arguments: [String]) throws -> [String: Any] {
        let run = try HeatmapCommand.run(["info"] + arguments + ["--json"])
        #expect(run.status == 0, "\(arguments): \(run.standardError)")
        let object = try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
        return object as? [String: Any] ?? [:]
    }

    /// The M(z) values of an `info --json` report.
    static func maxima(_ report: [String: Any]) -> [Double] {
        (report["normalization"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? Double }
    }

    /// Whether two lists of M(z) agree to float precision.
    static func sameMaxima(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && !a.isEmpty && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 * max(abs($1), 1e-30) }
    }

    @Test("import --shard --time --categories; tile, info, image --datetime --category: the kept rows' file's")
    func shardedFilterCommands() throws {
        let cluster = try Self.require()
        let single = try TestCluster.require()
        // The same table name on one server and over the shards: the same messages.
        let table = try Self.importedByCommand("command_filters", cluster)
        let oneServer = try FilteredTableOutputTests.imported("command_filters", cluster: single)
        let kept = try FilteredTableOutputTests.keptFile()
        let all = try FilteredTableOutputTests.rowsFile()
        defer { for file in [kept, all] { try? FileManager.default.removeItem(atPath: file) } }
        let filters = ["--datetime", FilteredTableOutputTests.window, "--category", "kind:theft,arson"]
        for tile in ["0/0/0", "6/57/39@2x", "3/7/4", "6/0/34"] {
            let a = try FilteredTableCommandTests.intensities(["tile"] + table + filters + [tile])
            let b = try FilteredTableCommandTests.intensities(["tile", kept, tile])
            let c = try FilteredTableCommandTests.intensities(["tile"] + oneServer + filters + [tile])
            #expect(a.count == b.count && a.count == c.count && !a.isEmpty, "tile \(tile)")
            let worst = zip(a, b).map { abs($0 - $1) / max(abs($1), 1e-30) }.max() ?? 0
            #expect(worst <= 1e-5, "tile \(tile): \(worst)")
            #expect(a == c, "tile \(tile): not one server's")
        }
        // info: the time range and values gathered over the shards, and M(z) of the rows kept
        // (--scale-of filter) or of every row (--scale-of all).
        let zooms = ["--zoom", "0,2,4,6,8"]
        let sharded = try Self.info(table + filters + zooms)
        let one = try Self.info(oneServer + filters + zooms)
        for key in ["timeRange", "categories"] {
            let a = try JSONSerialization.data(withJSONObject: sharded[key] ?? [], options: .sortedKeys)
            let b = try JSONSerialization.data(withJSONObject: one[key] ?? [], options: .sortedKeys)
            #expect(a == b && a.count > 10, "\(key)")
        }
        let categories = sharded["categories"] as? [[String: Any]] ?? []
        #expect(categories.map { $0["column"] as? String } == ["kind", "n"])
        #expect(
            Self.sameMaxima(Self.maxima(sharded), Self.maxima(try Self.info([kept] + zooms))), "scale of the filter")
        let whole = try Self.info(table + filters + zooms + ["--scale-of", "all"])
        #expect(Self.sameMaxima(Self.maxima(whole), Self.maxima(try Self.info([all] + zooms))), "scale of all")
        // image: the kept rows' file's picture.
        let view = ["--center", "20,10", "--zoom", "2", "--size", "500x300"]
        let (fromTable, fromFile) = (
            HeatmapCommand.temporaryPath("table.png"), HeatmapCommand.temporaryPath("file.png")
        )
        let drawn = try HeatmapCommand.run(["image"] + table + view + filters + ["--output", fromTable])
        let expected = try HeatmapCommand.run(["image", kept] + view + ["--output", fromFile])
        #expect(drawn.status == 0 && expected.status == 0, "\(drawn.standardError) \(expected.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fromTable))
        let expectedBytes = try Data(contentsOf: URL(fileURLWithPath: fromFile))
        #expect(bytes.count > 100 && bytes == expectedBytes)
        // An unknown value or column: one server's error, word for word.
        for (wrong, named) in [("kind:fraud", "fraud"), ("colour:red", "colour")] {
            let a = try HeatmapCommand.run(["tile"] + table + ["--category", wrong, "0/0/0"])
            let b = try HeatmapCommand.run(["tile"] + oneServer + ["--category", wrong, "0/0/0"])
            #expect(a.status != 0 && a.status == b.status, "\(wrong): \(a.standardError)")
            #expect(a.standardError.contains(named), "\(a.standardError)")
            #expect(
                a.standardError.replacing(cluster.coordinator.url, with: "")
                    == b.standardError.replacing(single.url, with: ""), "\(wrong)")
        }
        // Time summaries stay on one server: refused before anything is read or written.
        let refused = try HeatmapCommand.run(
            [
                "import", all, "--postgres", cluster.coordinator.url, "--table", "command_filters_sums", "--time", "t",
                "--time-summaries", "--shard", cluster.shards[0].url,
            ])
        #expect(refused.status != 0 && refused.standardError.contains("--time-summaries"), "\(refused.standardError)")
        #expect(try Self.shardCounts("command_filters", cluster).reduce(0, +) == FilteredTableTests.rows.count)
    }

    @Test("serve a sharded table: ?datetime=&category= tiles are tile's, 400 as on one server, 204 for none kept")
    func shardedFilterServe() async throws {
        let cluster = try Self.require()
        let single = try TestCluster.require()
        let table = try Self.importedByCommand("served_filters", cluster)
        let oneServer = try FilteredTableOutputTests.imported("served_filters", cluster: single)
        let servers = [try ServeProcess(table), try ServeProcess(oneServer)]
        defer { for server in servers { _ = server.stop() } }
        let tiles = ["6/57/39", "0/0/0", "3/7/4"]
        let sharded = try await FilteredTableCommandTests.expectServedTiles(
            servers[0], layer: "served_filters", table: table, tiles: tiles)
        let one = try await FilteredTableCommandTests.expectServedTiles(
            servers[1], layer: "served_filters", table: oneServer, tiles: tiles)
        #expect(sharded == one, "not one server's tiles")
        for wrong in ["category=kind:fraud", "category=colour:red", "datetime=2024-09-01/2024-01-01"] {
            let answers = try await [
                LoopbackHTTP.get(servers[0].base + "/served_filters/0/0/0.png?\(wrong)"),
                LoopbackHTTP.get(servers[1].base + "/served_filters/0/0/0.png?\(wrong)"),
            ]
            #expect(answers[0].status == 400 && answers[0].body == answers[1].body, "\(wrong)")
        }
        let unknown = try await LoopbackHTTP.get(servers[0].base + "/served_filters/0/0/0.png?category=kind:fraud")
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("fraud"))
        let empty = try await LoopbackHTTP.get(
            servers[0].base + "/served_filters/0/0/0.png?datetime=1999-01-01/2000-01-01")
        #expect(empty.status == 204)
    }

    @Test("import --append through the coordinator copies --time and --categories to the shards' rows")
    func shardedFilterAppend() throws {
        let cluster = try Self.require()
        let table = try Self.importedByCommand("appended_filters", cluster)
        _ = try Self.importedByCommand("appended_filters", cluster, append: true)
        #expect(try Self.shardCounts("appended_filters", cluster).reduce(0, +) == 2 * FilteredTableTests.rows.count)
        // Every kept row twice: the file of the kept rows, each twice.
        let window = try TimeWindow(parsing: FilteredTableOutputTests.window)
        let kept = FilteredTableTests.kept(window: window, keep: { $0.kind == "theft" || $0.kind == "arson" })
        let twice = try HeatmapCommand.csv(kept + kept)
        defer { try? FileManager.default.removeItem(atPath: twice) }
        let filters = ["--datetime", FilteredTableOutputTests.window, "--category", "kind:theft,arson"]
        for tile in ["0/0/0", "6/57/39@2x"] {
            let a = try FilteredTableCommandTests.intensities(["tile"] + table + filters + [tile])
            let b = try FilteredTableCommandTests.intensities(["tile", twice, tile])
            #expect(a.count == b.count && !a.isEmpty, "tile \(tile)")
            let worst = zip(a, b).map { abs($0 - $1) / max(abs($1), 1e-30) }.max() ?? 0
            #expect(worst <= 1e-5, "tile \(tile): \(worst)")
        }
        // Appending columns a sharded table lacks is refused, leaving it as it was.
        let file = try FilteredTableOutputTests.rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let plain = try HeatmapCommand.run(
            ["import", file, "--postgres", cluster.coordinator.url, "--table", "appended_plain", "--replace"]
                + cluster.shards.flatMap { ["--shard", $0.url] })
        #expect(plain.status == 0, "\(plain.standardError)")
        let refused = try HeatmapCommand.run(
            [
                "import", file, "--postgres", cluster.coordinator.url, "--table", "appended_plain", "--append",
                "--time",
                "t",
            ])
        #expect(refused.status != 0 && refused.standardError.contains("column t: an append with --time"))
        #expect(try Self.shardCounts("appended_plain", cluster).reduce(0, +) == FilteredTableTests.rows.count)
    }
}
