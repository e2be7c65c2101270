import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Time windows and categories over a sharded table (issue 28 over `import --shard`): the
/// columns copied to every shard, the time range and values gathered from the shards, the
/// filtered tiles and M(z) those of exactly the rows kept, and the values sent to the shards as
/// parameters of `postgres_fdw`'s statements, never in their text.
extension ShardingTests {
    /// The filter test rows (``FilteredTableTests/rows``) imported from a file with their time
    /// and both categories into `table` over the suite's shards.
    static func importFiltered(_ table: String, _ cluster: ShardedCluster) throws -> PostgresSource {
        let file = try FilteredTableOutputTests.rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        var options = PointReadOptions()
        options.timeColumn = "t"
        options.categoryColumns = ["kind", "n"]
        let loaded = try PostgresShardedImport.run(
            path: file, options: options, into: table, coordinator: cluster.coordinator.conninfo,
            shards: cluster.shards.map(\.conninfo), mode: .replace, chunkSize: 100)
        #expect(loaded.summary.rows == FilteredTableTests.rows.count)
        var described = PostgresTable(name: table)
        described.timeColumn = "t"
        described.categoryColumns = ["kind", "n"]
        return try PostgresSource(connection: cluster.coordinator.conninfo, table: described)
    }

    @Test("import --shard --time --categories: every shard's table and key index hold them; facets gathered")
    func shardedFilterColumns() throws {
        let cluster = try Self.require()
        let source = try Self.importFiltered("filtered_shards", cluster)
        let counts = try Self.shardCounts("filtered_shards", cluster)
        #expect(counts.allSatisfy { $0 > 0 } && counts.reduce(0, +) == FilteredTableTests.rows.count, "\(counts)")
        for shard in cluster.shards {
            let connection = try PostgresConnection(shard.conninfo)
            let columns = try FilteredTableOutputTests.copiedColumns("filtered_shards", on: connection)
            #expect(columns == "t timestamp with time zone, kind text, n text")
            let index = try connection.execute("SELECT pg_get_indexdef('filtered_shards_key'::regclass)").text(0, 0)
            #expect(index?.hasSuffix("(key) INCLUDE (x, y, weight, t, kind, n)") == true, "\(index ?? "")")
        }
        #expect(source.layout.partitionShift == ShardLayout.shift && source.layout.time?.kind == .instant)
        // The time range and each value's count, as the rows give them.
        let facets = try source.filterFacets()
        let seconds = FilteredTableTests.rows.map(\.second)
        #expect(facets.timeRange == seconds.min()!...seconds.max()!)
        for (column, value) in [("kind", { (row: FilteredTableTests.Row) in row.kind }), ("n", { "\($0.number)" })] {
            let expected = Dictionary(FilteredTableTests.rows.map { (value($0), 1) }, uniquingKeysWith: +)
            let dictionary = try #require(facets.dictionaries.first { $0.column == column })
            let found = Dictionary(dictionary.mostFrequent().map { ($0.value, $0.count) }, uniquingKeysWith: +)
            #expect(found == expected, "\(column)")
        }
    }

    @Test("a sharded table's window and categories: tiles, intensities and M(z) of exactly the rows kept")
    func shardedFilteredTiles() throws {
        let cluster = try Self.require()
        let source = try Self.importFiltered("filtered_shards_tiles", cluster)
        let window = try TimeWindow(parsing: "2024-03-01/..")
        let filtered = try source.filtered(
            window: window,
            categories: [
                CategorySelection(column: "kind", values: ["theft", "x'); DROP TABLE filtered_plain; --"]),
                CategorySelection(column: "n", values: ["-1", "2"]),
            ])
        #expect(filtered.layout.shardCells == nil && filtered.layout.partitionShift == ShardLayout.shift)
        let kept = FilteredTableTests.kept(
            window: window,
            keep: { ["theft", "x'); DROP TABLE filtered_plain; --"].contains($0.kind) && [-1, 2].contains($0.number) })
        #expect(kept.count > 5)
        try PostgresSourceTests.expectSameTiles(filtered, as: kept, scales: [1, 2])
        // A window alone, and a value no row holds (every tile empty).
        let spring = try TimeWindow(parsing: "2024-02-10T05:00:00Z/2024-07-01")
        try PostgresSourceTests.expectSameTiles(
            try source.filtered(window: spring, categories: []), as: FilteredTableTests.kept(window: spring),
            scales: [1])
        let none = try source.filtered(window: .all, categories: [CategorySelection(column: "kind", values: ["fraud"])])
        try PostgresSourceTests.expectSameTiles(none, as: [], scales: [1])
        #expect(try Self.shardCounts("filtered_shards_tiles", cluster).reduce(0, +) == FilteredTableTests.rows.count)
    }

    @Test("a filter's values reach each shard as parameters of postgres_fdw's statements, tiles' and M(z)'s")
    func shardedFilterParameters() throws {
        let cluster = try Self.require()
        let source = try Self.importFiltered("filtered_shards_bound", cluster)
        // Every statement the shards run from now on, in their logs (new sessions only: a new source).
        let marks = try cluster.shards.map { shard in
            let connection = try PostgresConnection(shard.conninfo)
            try connection.execute("ALTER DATABASE postgres SET log_statement = 'all'")
            return (try? Data(contentsOf: URL(fileURLWithPath: shard.folder + "/log")).count) ?? 0
        }
        defer {
            for shard in cluster.shards {
                _ = try? PostgresConnection(shard.conninfo).execute("ALTER DATABASE postgres RESET log_statement")
            }
        }
        let logged = try PostgresSource(connection: cluster.coordinator.conninfo, table: source.table)
        let value = "arson"
        let filtered = try logged.filtered(
            window: try TimeWindow(parsing: "2024-02-10T05:00:00Z/2024-09-01"),
            categories: [CategorySelection(column: "kind", values: [value])])
        let layer = HeatmapTileLayer(source: filtered)
        #expect(try layer.intensity(x: 0, y: 0, zoom: 0, scale: 1) != nil)
        #expect(try layer.normalization(zoom: 3) > 0)
        var parameterLines = 0
        for (shard, mark) in zip(cluster.shards, marks) {
            let log = try Data(contentsOf: URL(fileURLWithPath: shard.folder + "/log"))
            let lines = String(decoding: log.dropFirst(mark), as: UTF8.self).split(separator: "\n")
            #expect(lines.contains { $0.contains("filtered_shards_bound") }, "the shard logged the statements")
            for line in lines where line.contains(value) || line.contains("1707541200") {
                #expect(line.contains("DETAIL:  parameters:"), "a value in a statement's text: \(line)")
                parameterLines += 1
            }
        }
        #expect(parameterLines > 0, "no shard was sent the values")
    }

    @Test("info's time range and counts over shards: the rows' answers, conditions on the shards, the range shipped")
    func shardedFacetsGathered() throws {
        let cluster = try Self.require()
        // Rows over the world, on both shards.
        var state: UInt64 = 0xFACE
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var text = "lat,lng,weight,t,kind\n"
        var seconds: [Int64] = []
        var kinds: [String: Int] = [:]
        for i in 0..<3000 {
            let second = 1_704_067_200 + Int64(next() * 31_536_000)
            let kind = ["a", "b", "c", "d"][i % 4]
            seconds.append(second)
            kinds[kind, default: 0] += 1
            text += "\(-60 + next() * 130),\(-180 + next() * 360),1,\(second),\(kind)\n"
        }
        let file = HeatmapCommand.temporaryPath("world.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        var options = PointReadOptions()
        options.timeColumn = "t"
        options.categoryColumns = ["kind"]
        _ = try PostgresShardedImport.run(
            path: file, options: options, into: "faceted_shards", coordinator: cluster.coordinator.conninfo,
            shards: cluster.shards.map(\.conninfo), mode: .replace)
        var table = PostgresTable(name: "faceted_shards")
        table.timeColumn = "t"
        table.categoryColumns = ["kind"]
        let source = try PostgresSource(connection: cluster.coordinator.conninfo, table: table)
        let facets = try source.filterFacets()
        #expect(facets.timeRange == seconds.min()!...seconds.max()!)
        let found = facets.dictionaries.first?.mostFrequent().map { ($0.value, $0.count) } ?? []
        #expect(Dictionary(found, uniquingKeysWith: +) == kinds)
        // Every condition runs on the shards, and the time range's aggregate is shipped whole
        // when summing on the coordinator is made costly (for a few thousand rows, which the
        // coordinator estimates at a handful under the conditions, it is the cheaper plan). The
        // values' counts group by a text column too: whether they are shipped is the planner's
        // choice by its estimates (they were for 2000 rows by hand, not for these 3000).
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        for setting in ["enable_partitionwise_aggregate = on", "enable_sort = off", "enable_hashagg = off"] {
            try connection.execute("SET " + setting)
        }
        let statements = source.facetStatements()
        for (index, statement) in ([statements.time].compactMap({ $0 }) + statements.categories).enumerated() {
            let result = try connection.execute("EXPLAIN (VERBOSE) " + statement)
            let plan = (0..<result.rowCount).compactMap { result.text($0, 0) }.joined(separator: "\n")
            let remote = plan.split(separator: "\n").filter { $0.contains("Remote SQL:") }
            #expect(remote.count == cluster.shards.count && !plan.contains("Filter:"), "\(plan)")
            guard index == 0 else { continue }
            #expect(remote.allSatisfy { $0.contains("min(t), max(t)") && $0.contains("GROUP BY") }, "\(plan)")
            #expect(!plan.contains("Foreign Scan on"), "rows brought to the coordinator: \(plan)")
        }
    }
}
