import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// How a time window's rows left to the rows are read (issue 28): the route the source decides
/// from the counts it holds (by time, by key, or the statement's own choice), and that every
/// route, whatever the counts say (stale, forged), gives the window's points exactly.
@Suite(.serialized) struct TimeSummaryRouteTests {
    /// Counts of 100 rows on day 0 and 100 on day 5; level-24 cells 0 and 3 holding 10 and 100,000.
    static func counted() -> TimeSummaryState {
        var state = TimeSummaryState(cells: "c", built: "b", finest: [24, 24, 24, 24], days: 0...9)
        (state.dayNumbers, state.rowsThrough) = ([0, 5], [100, 200])
        (state.cellPrefixes, state.cellRowsThrough) = ([0, 3], [10, 100_010])
        return state
    }

    @Test("the rows of key ranges, estimated from the counted cells by the share of each cell they cover")
    func estimate() {
        let state = Self.counted()
        #expect(state.estimatedRows(inCodes: [(0, 0)], level: 24) == (10, 1))
        // A quarter of cell 0, then all of cell 3, at level 23.
        #expect(state.estimatedRows(inCodes: [(0, 0)], level: 23) == (2.5, 0.25))
        #expect(state.estimatedRows(inCodes: [(12, 15)], level: 23) == (100_000, 1))
        // Half of cell 0 to half of cell 3 (cells 1 and 2 hold none), at level 22: 16 codes a cell.
        let across = state.estimatedRows(inCodes: [(8, 55)], level: 22)
        #expect(across.rows == 5 + 50_000 && across.covered == 0.75)
        // Codes of a coarser level are whole cells: level 25's cell 0 is level 24's 0...3.
        #expect(state.estimatedRows(inCodes: [(0, 0)], level: 25) == (100_010, 1))
        #expect(state.estimatedRows(inCodes: [], level: 20) == (0, 1))
    }

    @Test("by key where the area's rows cost no more, by time where they clearly cost more, else the statement chooses")
    func routes() {
        typealias Use = TimeSummaryUse
        // 200 rows left: by key up to 4 × 200 rows of all times in the area.
        #expect(Use.route(window: 200, area: (800, 0.1)) == .byKey)
        #expect(Use.route(window: 200, area: (801, 1)) == .byTime)
        #expect(Use.route(window: 200, area: (801, 0.25)) == .byTime)
        // The estimate is loose (a tenth of the cells' area) and within 16 times: the statement counts.
        #expect(Use.route(window: 200, area: (4000, 0.1)) == .inStatement)
        #expect(Use.route(window: 200, area: (12_800, 0.1)) == .byTime)
        #expect(Use.route(window: 0, area: (0, 1)) == .byKey)
    }

    /// `source` filtered to `window`, its counts of cells replaced by `cells` rows in each of the
    /// level-24 cells (none: empty counts), and a million rows counted on a day long after the
    /// rows (so that a short window holds under 1/64 of them: these few rows are read by route).
    static func forged(_ source: PostgresSource, window: TimeWindow, cells: Int?) throws -> PostgresSource {
        let filtered = try source.filtered(window: window, categories: [])
        var layout = filtered.layout
        if var use = layout.timeSummaries {
            let prefixes = cells == nil ? [] : Array(Int64(0)..<65_536)
            use.state.cellPrefixes = prefixes
            use.state.cellRowsThrough = prefixes.indices.map { ($0 + 1) * (cells ?? 0) }
            use.state.dayNumbers.append((use.state.dayNumbers.last ?? 0) + 10_000)
            use.state.rowsThrough.append((use.state.rowsThrough.last ?? 0) + 1_000_000)
            layout.timeSummaries = use
        }
        return PostgresSource(copying: filtered, pinnedChangeCount: filtered.pinnedChangeCount, layout: layout)
    }

    @Test(
        "each route gives the window's tiles and M(z) exactly, whatever the counts say, stale after writes too",
        .needsPostgres)
    func exactRoutes() throws {
        let cluster = try TestCluster.require()
        try TimeSummaryTests.importRows(into: "timed_routes", conninfo: cluster.conninfo)
        let source = try TimeSummaryTests.source("timed_routes", conninfo: cluster.conninfo)
        // A day and a week: no bucket is whole below level 24 (these few rows keep only it).
        let texts = ["2024-01-05/2024-01-06", "2024-01-03T05:00:00Z/2024-01-10T07:00:00Z"]
        let space = try PixelSpace(zoom: 8, scale: 1)
        let (columns, rows) = (231 * 256 - 20..<232 * 256 + 20, 157 * 256 - 20..<158 * 256 + 20)
        for text in texts {
            let window = try TimeWindow(parsing: text)
            let points = FilteredTableTests.kept(window: window)
            // No counts: the rows by key, as without summaries (the same statement, the same fast path).
            let byKey = try Self.forged(source, window: window, cells: nil)
            #expect(byKey.layout.timeSummaries != nil)
            let read = try #require(byKey.summaryRead(level: 16))
            #expect(byKey.readsRowsAlone(read, level: 16, columns: columns, rows: rows))
            let plain = try source.filtered(window: window, categories: []).withoutTimeSummaries()
            #expect(
                byKey.statement(space: space, columns: columns, rows: rows).0
                    == plain.statement(space: space, columns: columns, rows: rows).0)
            try PostgresSourceTests.expectSameTiles(byKey, as: points, scales: [1, 2])
            // Many rows in every cell: the window by time, one branch, no summaries or freshness read.
            let byTime = try Self.forged(source, window: window, cells: 1_000_000)
            let timed = byTime.statement(space: space, columns: columns, rows: rows).0
            #expect(timed.contains("AT TIME ZONE") && !timed.contains("UNION ALL") && !timed.contains("heatmap_time"))
            // M(z)'s cells finer than the summaries' levels: the window by time, or the rows by key.
            let world: [ClosedRange<Int64>] = [Int64.min...(-1), 0...Int64.max]
            #expect(byTime.windowCells(level: 12, ranges: world)?.contains("range_agg") == true)
            #expect(byKey.windowCells(level: 12, ranges: world) == nil)
            try PostgresSourceTests.expectSameTiles(byTime, as: points, scales: [1, 2])
            // Rows a cell near the break-even (8 times the window's, counted), the estimate loose
            // (a tile's rectangle covers a fraction of the 3 × 3 cells it touches): the statement chooses.
            let use = try #require(byKey.layout.timeSummaries)
            let split = try #require(use.buckets(level: 16))
            let left = use.state.rows(onDays: split.rowDays(inside: use.state.days))
            #expect(split.buckets.isEmpty && left >= points.count)
            let asked = try Self.forged(source, window: window, cells: 8 * left)
            let chosen = asked.statement(space: space, columns: columns, rows: rows).0
            #expect(chosen.contains("generate_series") && !chosen.contains("heatmap_time_summaries"), "\(chosen)")
            try PostgresSourceTests.expectSameTiles(asked, as: points, scales: [1, 2])
        }
        // Whole buckets at level 24 (the world's tile) and partial days left: by key, the plain
        // statement (and M(z)'s rows alone, its parameters untouched); by time, the summaries and one branch.
        let edges = try TimeWindow(parsing: "2024-01-03T05:00:00Z/2024-02-20T07:00:00Z")
        let world = try PixelSpace(zoom: 0, scale: 1)
        let (keyed, timed) = (
            try Self.forged(source, window: edges, cells: nil), try Self.forged(source, window: edges, cells: 1_000_000)
        )
        let whole = try #require(keyed.summaryRead(level: 24))
        #expect(whole.buckets?.buckets.isEmpty == false && whole.remainder != nil)
        #expect(keyed.readsRowsAlone(whole, level: 24, columns: 0..<256, rows: 0..<256))
        #expect(
            keyed.statement(space: world, columns: 0..<256, rows: 0..<256).0
                == (try source.filtered(window: edges, categories: [])).withoutTimeSummaries().statement(
                    space: world, columns: 0..<256, rows: 0..<256
                ).0)
        var parameters: [String?] = ["{0}", "{1}", "0"]
        let cells = keyed.summaryCells(
            level: 24, ranges: [Int64.min...(-1), 0...Int64.max], wholeWorld: true, parameters: &parameters
        ) { _ in "" }
        #expect(cells == nil && parameters.count == 3)
        let both = timed.statement(space: world, columns: 0..<256, rows: 0..<256).0
        #expect(both.contains("_tcells") && both.contains("AT TIME ZONE") && !both.contains("generate_series"))
        let edgePoints = FilteredTableTests.kept(window: edges)
        try PostgresSourceTests.expectSameTiles(keyed, as: edgePoints, scales: [1])
        try PostgresSourceTests.expectSameTiles(timed, as: edgePoints, scales: [1])
        // No days' summaries (8-day blocks at level 24): a window whose days left hold at most a
        // quarter of its rows reads its blocks; one whose days left hold more reads the rows.
        func blocks(_ text: String) throws -> SummaryRead? {
            var layout = try Self.forged(source, window: try TimeWindow(parsing: text), cells: nil).layout
            layout.timeSummaries?.state.finest = [25, 24, 24, 24]
            return PostgresSource(copying: source, pinnedChangeCount: nil, layout: layout).summaryRead(level: 24)
        }
        let mostly = try #require(try blocks("2024-01-03/2024-02-20"))
        #expect(mostly.buckets?.fewDaysLeft == false && mostly.buckets?.buckets.count == 5)
        #expect(try blocks("2024-01-03/2024-01-20") == nil)
        // Counts read before a DELETE and an INSERT by hand: stale, they only choose a route.
        let window = try TimeWindow(parsing: texts[0])
        let stale = [nil, 1_000_000, 40].map { try? Self.forged(source, window: window, cells: $0) }
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute(
            "DELETE FROM timed_routes WHERE t >= to_timestamp(1704412800) AND t < to_timestamp(1704420000)")
        try connection.execute(
            "INSERT INTO timed_routes (lat, lng, weight, t, kind) VALUES (-37.8, 144.9, 3, to_timestamp(1704430000), 'theft')"
        )
        let added = WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9), intensity: 3)
        let left = FilteredTableTests.rows.filter {
            window.contains($0.second) && !(1_704_412_800..<1_704_420_000).contains($0.second)
        }.map(\.point)
        for source in stale {
            try PostgresSourceTests.expectSameTiles(try #require(source), as: left + [added], scales: [1])
        }
    }
}
