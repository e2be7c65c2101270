import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Where a table's animation closes its open ends (issue 28): on the first and last time of
/// the rows its window and categories keep (one statement over the filtered rows, its values
/// bound parameters), not the table's; an open end with no row kept is an error the server
/// answers 204.
@Suite(.serialized, .needsPostgres) struct FilteredTableTimesTests {
    typealias Row = FilteredTableTests.Row

    static func filters(_ cluster: TestCluster) throws -> PostgresFilters {
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        try FilteredTableTests.makeTable("filtered_times", on: connection)
        var table = PostgresTable(name: "filtered_times")
        table.timeColumn = "t"
        table.categoryColumns = ["kind", "n"]
        return try PostgresFilters(source: try PostgresSource(connection: cluster.conninfo, table: table))
    }

    /// The first and last second of the rows of positive weight `window` and `keep` keep: the
    /// brute force (the rows hold one of weight 0, the last, which draws nothing).
    static func range(_ window: TimeWindow, _ keep: (Row) -> Bool) -> ClosedRange<Int64>? {
        let seconds = FilteredTableTests.rows.filter {
            $0.point.intensity > 0 && window.contains($0.second) && keep($0)
        }
        .map(\.second)
        guard let low = seconds.min(), let high = seconds.max() else { return nil }
        return low...high
    }

    @Test("the kept rows' time range is brute force's, for windows and categories; values only bound")
    func keptTimeRange() throws {
        let filters = try Self.filters(try TestCluster.require())
        let hostile = "x'); DROP TABLE filtered_times; --"
        let cases: [(String, [CategorySelection], (Row) -> Bool)] = [
            ("../..", [CategorySelection(column: "kind", values: ["theft"])], { $0.kind == "theft" }),
            (
                "2024-03-01/..", [CategorySelection(column: "n", values: ["2", "-1"])],
                { [2, -1].contains($0.number) }
            ),
            ("../2024-05-01", [], { _ in true }),
            ("../..", [], { _ in true }),
            ("2030-01-01/..", [CategorySelection(column: "kind", values: ["arson"])], { _ in false }),
        ]
        for (text, selections, keep) in cases {
            let window = try TimeWindow(parsing: text)
            let filter = try PointFilter(
                window: window, categories: selections, dictionaries: filters.facets.dictionaries)
            #expect(try filters.timeRange(keeping: filter) == Self.range(window, keep), "\(text) \(selections)")
        }
        let last = try #require(FilteredTableTests.rows.last)
        #expect(last.point.intensity == 0 && last.second == filters.facets.timeRange?.upperBound)
        #expect(try filters.timeRange(keeping: .all)?.upperBound != last.second)
        // The statement holds neither the value nor the window: both are bound parameters.
        let kept = try filters.source.filtered(
            window: try TimeWindow(parsing: "2024-03-01/.."),
            categories: [CategorySelection(column: "kind", values: ["theft", hostile])])
        let (sql, parameters) = try PostgresConnection.binding(try #require(kept.facetStatements().time), [])
        #expect(!sql.contains("DROP") && !sql.contains("theft") && !sql.contains("1709"))
        #expect(parameters.contains { $0?.contains("DROP TABLE") == true })
    }

    @Test("an animation's open ends close on the category's rows; none kept is keepsNothing")
    func animationOfTable() throws {
        let filters = try Self.filters(try TestCluster.require())
        let viewport = Viewport(center: Coordinate(latitude: 20, longitude: 10), zoom: 2, width: 64, height: 64)
        let step = try TimeStep(parsing: "1w", name: "step")
        func plan(_ text: String, _ kinds: [String]) throws -> FramePlan {
            let request = LayerFilterRequest(
                window: try TimeWindow(parsing: text), categories: [CategorySelection(column: "n", values: kinds)])
            return try HeatmapAnimation.prepare(
                request, step: step, window: step, viewport: viewport, source: filters,
                whole: HeatmapTileLayer(settings: .default), settings: .default, base: nil
            ).animation.plan
        }
        let wanted = try #require(Self.range(.all) { $0.number == 3 })
        let all = try #require(filters.facets.timeRange)
        let found = try plan("../..", ["3"])
        #expect(found.start == Int(wanted.lowerBound) && found.end == Int(wanted.upperBound) + 1)
        let opening = try plan("2024-04-01/..", ["3"])
        #expect(opening.end == Int(wanted.upperBound) + 1)
        #expect(all.upperBound > wanted.upperBound || all.lowerBound < wanted.lowerBound)
        do {
            _ = try plan("2030-01-01/..", ["3"])
            Issue.record("planned an open end with no row kept")
        } catch let error as FramePlanError {
            #expect(error.kind == .keepsNothing && error.message.contains("n:3"), "\(error.message)")
        }
    }
}
