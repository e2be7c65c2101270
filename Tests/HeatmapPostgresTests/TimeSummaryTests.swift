import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// The time summaries of a table `import` made with `--time --time-summaries` (issue 28): a window's whole
/// buckets read from them and its partial days from the rows give exactly the tiles and M(z)
/// of the points in the window; after a write by hand the rows answer alone.
@Suite(.serialized, .needsPostgres) struct TimeSummaryTests {
    /// Imports the filter tests' rows into `name` with their time as `t` and kind as `kind`,
    /// as `heatmap import --time t --time-summaries --categories kind` does.
    static func importRows(into name: String, conninfo: ConnectionString) throws {
        let importer = try PostgresImporter(
            table: name, connection: conninfo, mode: .replace,
            fields: ImportedFields(timeColumn: "t", categoryColumns: ["kind"], timeSummaries: true))
        var values = PointChunkFields(categoryColumns: 1)
        for row in FilteredTableTests.rows {
            values.times.append(row.second)
            values.categories[0].append(row.kind)
        }
        try importer.append(FilteredTableTests.rows.map(\.point)[...], values: values)
        _ = try importer.finish()
    }

    static func source(_ name: String, conninfo: ConnectionString) throws -> PostgresSource {
        var table = PostgresTable(name: name)
        table.timeColumn = "t"
        table.categoryColumns = ["kind"]
        return try PostgresSource(connection: conninfo, table: table)
    }

    @Test("whole buckets from the summaries, partial days from the rows: the window's points exactly")
    func exactWindows() throws {
        let cluster = try TestCluster.require()
        try Self.importRows(into: "timed_imported", conninfo: cluster.conninfo)
        let source = try Self.source("timed_imported", conninfo: cluster.conninfo)
        let state = try #require(source.layout.timeState)
        #expect(state.finest.count == TimeSummaries.spans.count && state.finest.allSatisfy { $0 <= 24 })
        let windows = [
            "2024-02-01/2024-06-01", "2024-02-10T05:00:00Z/2024-09-03T07:30:00Z", "2024-03-01/..",
            "../2024-05-17T12:00:00Z", "2024-03-05T01:00:00Z/2024-03-05T20:00:00Z", "2023-01-01/2030-01-01",
        ]
        for text in windows {
            let window = try TimeWindow(parsing: text)
            let filtered = try source.filtered(window: window, categories: [])
            #expect(filtered.layout.timeSummaries != nil, "\(text)")
            let points = FilteredTableTests.kept(window: window)
            // Scale 2 reads the coarser spans alone (their finest levels are finer than the days').
            try PostgresSourceTests.expectSameTiles(
                filtered, as: points, scales: text.hasSuffix("30:00Z") ? [1, 2] : [1])
        }
        // The world's tile of a month reads the summaries (the only level these few rows keep
        // for days): its statement names them.
        let month = try source.filtered(window: TimeWindow(parsing: "2024-02-01/2024-06-01"), categories: [])
        let space = try PixelSpace(zoom: 0, scale: 1)
        #expect(
            month.statement(space: space, columns: 0..<256, rows: 0..<256).0.contains("_tcells"))
        // A pinned version (as serve and render read) reads them too, in its counted statement.
        let count = try #require(try source.changeCount())
        let pinned = try source.pinned(toChangeCount: count).filtered(
            window: TimeWindow(parsing: "2024-02-10T05:00:00Z/2024-09-03T07:30:00Z"), categories: [])
        #expect(pinned.readsTimeSummaries(at: space))
        let points = FilteredTableTests.kept(
            window: try TimeWindow(parsing: "2024-02-10T05:00:00Z/2024-09-03T07:30:00Z"))
        let memory = try HeatmapTileLayer(index: PointIndex(points: points)).intensity(x: 0, y: 0, zoom: 0, scale: 1)
        let served = try HeatmapTileLayer(source: pinned).intensity(x: 0, y: 0, zoom: 0, scale: 1)
        let (a, b) = (try #require(memory), try #require(served))
        #expect(zip(a.values, b.values).allSatisfy { abs($0 - $1) <= 1e-6 * max($0, $1, .leastNormalMagnitude) })
        // A window with a category reads the rows.
        let kind = try source.filtered(
            window: TimeWindow(parsing: "2024-02-01/2024-06-01"),
            categories: [CategorySelection(column: "kind", values: ["theft"])])
        #expect(kind.layout.timeSummaries == nil)
    }

    @Test("summaries are read while fresh, and a write by hand sends the window to the rows")
    func staleAfterWrite() throws {
        let cluster = try TestCluster.require()
        try Self.importRows(into: "timed_stale", conninfo: cluster.conninfo)
        let connection = try PostgresConnection(cluster.conninfo)
        let window = try TimeWindow(parsing: "2024-02-01/2024-08-01")
        let points = FilteredTableTests.kept(window: window)
        let memory = HeatmapTileLayer(index: try PointIndex(points: points))
        // Summaries doubled behind the source's back change a coarse tile: they are what it reads.
        try connection.execute("UPDATE timed_stale_tcells SET weight = weight * 2")
        let source = try Self.source("timed_stale", conninfo: cluster.conninfo)
        let doubled = HeatmapTileLayer(source: try source.filtered(window: window, categories: []))
        let a = try #require(try memory.intensity(x: 0, y: 0, zoom: 0, scale: 1))
        let b = try #require(try doubled.intensity(x: 0, y: 0, zoom: 0, scale: 1))
        #expect(zip(a.values, b.values).contains { abs($0 - $1) > 1e-3 * max($0, $1) })
        // A row added by hand: the change count moves, the (wrong) summaries are read no more.
        let added = WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9), intensity: 3)
        try connection.execute(
            "INSERT INTO timed_stale (lat, lng, weight, t, kind) VALUES ($1, $2, 3, to_timestamp($3::int8), 'theft')",
            ["-37.8", "144.9", "1709294400"])
        let fresh = try Self.source("timed_stale", conninfo: cluster.conninfo)
        try PostgresSourceTests.expectSameTiles(
            try fresh.filtered(window: window, categories: []), as: points + [added], scales: [1])
    }

    @Test("image --postgres --datetime A/B --step 1d --window 2d writes the APNG a file of the same rows writes")
    func animationFromTable() throws {
        let cluster = try TestCluster.require()
        try Self.importRows(into: "timed_animation", conninfo: cluster.conninfo)
        let csv = HeatmapCommand.temporaryPath("timed.csv")
        var text = "lat,lng,weight,t\n"
        for row in FilteredTableTests.rows {
            let c = row.point.coordinate
            text += "\(c.latitude),\(c.longitude),\(Float(row.point.intensity)),\(row.second)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
        let options = [
            "--time", "t", "--center", "-37.5,145", "--zoom", "6", "--size", "160x96", "--datetime",
            "2024-03-01/2024-03-09", "--step", "1d", "--window", "2d",
        ]
        func animation(_ source: [String]) throws -> [UInt8] {
            let output = HeatmapCommand.temporaryPath("anim.png")
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try HeatmapCommand.run(["image"] + source + options + ["--output", output])
            #expect(run.status == 0, "\(source): \(run.standardError)")
            return (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))) ?? []
        }
        let table = try animation(["--postgres", cluster.url, "--table", "timed_animation"])
        let file = try animation([csv])
        // acTL's frame count: 8 daily frames.
        let actl = try #require(table.indices.first { table[$0..<min($0 + 4, table.count)].elementsEqual("acTL".utf8) })
        #expect(table[(actl + 4)..<(actl + 8)].elementsEqual([0, 0, 0, 8]))
        #expect(table == file)
    }

    @Test("import makes time summaries only when asked (--time-summaries), which needs --time")
    func optIn() throws {
        let cluster = try TestCluster.require()
        let csv = HeatmapCommand.temporaryPath("opt-in.csv")
        var text = "lat,lng,weight,t\n"
        for row in FilteredTableTests.rows.prefix(200) {
            let c = row.point.coordinate
            text += "\(c.latitude),\(c.longitude),\(Float(row.point.intensity)),\(row.second)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
        let connection = try PostgresConnection(cluster.conninfo)
        func made(_ name: String) throws -> (summaries: Bool, state: Bool) {
            let summaries = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [name + "_tcells"]).text(0, 0)
            let state = try connection.execute(
                "SELECT count(*) FROM heatmap_time_summaries WHERE table_name = $1", ["public." + name]
            ).text(0, 0)
            return (summaries == "t", state == "1")
        }
        let base = ["import", csv, "--postgres", cluster.url, "--time", "t", "--replace"]
        let plain = try HeatmapCommand.run(base + ["--table", "timed_plain"])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(try made("timed_plain") == (false, false))
        let asked = try HeatmapCommand.run(base + ["--table", "timed_asked", "--time-summaries"])
        #expect(asked.status == 0, "\(asked.standardError)")
        #expect(try made("timed_asked") == (true, true))
        // Appended without the flag: the summaries are read no more (their state row goes).
        let appended = try HeatmapCommand.run(
            ["import", csv, "--postgres", cluster.url, "--time", "t", "--append", "--table", "timed_asked"])
        #expect(appended.status == 0, "\(appended.standardError)")
        #expect(try made("timed_asked").state == false)
        let refused = try HeatmapCommand.run(
            ["import", csv, "--postgres", cluster.url, "--table", "timed_refused", "--time-summaries"])
        #expect(refused.status != 0 && refused.standardError.contains("--time-summaries"), "\(refused.standardError)")
    }

    @Test("a window splits into whole aligned buckets and the intervals left, exactly")
    func split() throws {
        let day = TimeSummaries.day
        let split = try #require(
            TimeBuckets(start: 10 * day + 5, end: 90 * day - 1, days: 0...1000, usable: [0, 3, 6, 9]))
        // Days 11..<89: 11..<16 by days, 16..<24 by 8, 24..<64 by 8 (64 does not fit), 64..<88 by 8, 88 by day.
        var covered: [Int64] = []
        for (span, bucket) in split.buckets { covered += (bucket << span..<(bucket + 1) << span).map { $0 } }
        #expect(covered == Array(11..<89))
        #expect(split.rows.map(\.start) == [10 * day + 5, 89 * day])
        #expect(split.rows.map(\.end) == [11 * day, 90 * day - 1])
        // Open ends reach past the summaries' days; no usable span: rows alone.
        let open = try #require(TimeBuckets(start: nil, end: nil, days: -1...130, usable: [3]))
        #expect(open.buckets.map(\.bucket) == Array(0..<16))
        #expect(open.rows.map(\.start) == [nil, 128 * day] && open.rows.map(\.end) == [0, nil])
        // Most of a window left to the rows (the statement reads them by time or by key).
        let most = try #require(TimeBuckets(start: 0, end: 100 * day, days: 0...1000, usable: [6]))
        #expect(most.buckets.map(\.bucket) == [0] && most.rows.map(\.start) == [64 * day])
        #expect(most.rows.map(\.end) == [100 * day])
        #expect(most.rowDays(inside: 0...1000) == [64...99])
        // No whole day, or no usable span: the whole window.
        let inside = try #require(TimeBuckets(start: 5, end: 100, days: 0...10, usable: [0]))
        #expect(inside.buckets.isEmpty && inside.rows.map(\.start) == [5] && inside.rows.map(\.end) == [100])
        #expect(inside.rowDays(inside: 0...10) == [0...0])
        let none = try #require(TimeBuckets(start: 0, end: 100 * day, days: 0...1000, usable: []))
        #expect(none.buckets.isEmpty && none.rows.map(\.start) == [0] && none.rows.map(\.end) == [100 * day])
        #expect(open.rowDays(inside: -1...130) == [-1...(-1), 128...130])
        // The rows of the days left, as the state counted them (days 3, 5 and 9 hold 2, 4 and 8).
        var state = TimeSummaryState(cells: "c", built: "b", finest: [24, 24, 24, 24], days: 3...9)
        (state.dayNumbers, state.rowsThrough) = ([3, 5, 9], [2, 6, 14])
        #expect(state.rows(onDays: [3...3, 6...9]) == 10 && state.rows(onDays: [0...4, 4...5]) == 6)
        #expect(state.rows(onDays: [10...Int64.max]) == 0 && state.rows(onDays: [Int64.min...Int64.max]) == 14)
        // More buckets than a statement reads: none.
        #expect(TimeBuckets(start: 0, end: 600 * day, days: 0...1000, usable: [0]) == nil)
    }
}
