import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// An animation's open ends over `heatmap import --shard … --time --categories` (issue 28): the
/// first rare row on one shard, the last on the other, both gathered by the coordinator's
/// statement over the filtered rows, so the APNG is one server's and a file's.
extension ShardingTests {
    @Test("open ends over a sharded table: timeRange, prepare and image --datetime ../.. close on the kept rows")
    func shardedOpenEnds() throws {
        let cluster = try Self.require()
        let file = try AnimationOpenEndTableTests.rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let imported = try HeatmapCommand.run(
            [
                "import", file, "--postgres", cluster.coordinator.url, "--table", "open_ends_sharded", "--replace",
                "--time", "time", "--categories", "kind",
            ] + cluster.shards.flatMap { ["--shard", $0.url] })
        try #require(imported.status == 0, "\(imported.standardError)")
        // Each shard holds rare rows drawn: the first and the last come from different shards.
        let rare = try cluster.shards.map {
            try PostgresConnection($0.conninfo).execute(
                "SELECT count(*) FROM open_ends_sharded WHERE kind = 'rare' AND weight > 0"
            ).text(0, 0)
        }
        #expect(rare == ["20", "20"], "\(rare)")
        var table = PostgresTable(name: "open_ends_sharded")
        table.timeColumn = "time"
        table.categoryColumns = ["kind"]
        let filters = try PostgresFilters(
            source: try PostgresSource(connection: cluster.coordinator.conninfo, table: table))
        let kept = AnimationOpenEndTableTests.rare
        let request = { (text: String) throws -> LayerFilterRequest in
            LayerFilterRequest(
                window: try TimeWindow(parsing: text), categories: [CategorySelection(column: "kind", values: ["rare"])]
            )
        }
        let filter = try PointFilter(
            window: .all, categories: request("../..").categories, dictionaries: filters.facets.dictionaries)
        #expect(try filters.timeRange(keeping: filter) == kept)
        let step = try TimeStep(parsing: "1d", name: "step")
        let viewport = Viewport(center: Coordinate(latitude: -30, longitude: 50), zoom: 1, width: 64, height: 64)
        func plan(_ text: String) throws -> FramePlan {
            try HeatmapAnimation.prepare(
                request(text), step: step, window: step, viewport: viewport, source: filters,
                whole: HeatmapTileLayer(settings: .default), settings: .default, base: nil
            ).animation.plan
        }
        let both = try plan("../..")
        #expect(both.start == Int(kept.lowerBound) && both.end == Int(kept.upperBound) + 1 && both.count == 3)
        let opening = try plan("2024-02-11/..")
        #expect(opening.end == Int(kept.upperBound) + 1 && opening.count == 2)
        do {
            _ = try plan("2024-02-20/..")
            Issue.record("planned an open end with no row kept")
        } catch let error as FramePlanError {
            #expect(error.kind == .keepsNothing && error.message.contains("kind:rare"), "\(error.message)")
        }
        // The command through the coordinator: the rare days' frames, the file's APNG.
        try AnimationOpenEndTableTests.expectOpenEnds(
            [
                "--postgres", cluster.coordinator.url, "--table", "open_ends_sharded", "--time", "time", "--categories",
                "kind",
            ],
            file: file)
    }
}
