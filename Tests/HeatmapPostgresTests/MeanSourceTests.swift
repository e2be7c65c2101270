import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// The kernel-weighted mean of a column over PostgreSQL (`sum(weight)` and
/// `sum(weight * (value - LO))` per pixel) against the in-memory mean of the same points.
@Suite(.serialized, .needsPostgres) struct MeanSourceTests {
    /// The police stations and the points of PostgresSourceTests, each valued ⌊4·lng⌋.
    static let points = PostgresSourceTests.points
    static let values = points.map { ($0.coordinate.longitude * 4).rounded(.down) }

    /// A table of the points with a `price` column of ⌊4·lng⌋, imported (summaries and key) or plain.
    static func table(_ name: String, imported: Bool, cluster: TestCluster) throws {
        let connection = try PostgresConnection(cluster.conninfo)
        if imported {
            _ = try PostgresImport.run(points: points, into: name, connection: cluster.conninfo, mode: .replace)
            try connection.execute("ALTER TABLE \(name) ADD COLUMN price float8")
        } else {
            try connection.execute("DROP TABLE IF EXISTS \(name)")
            try connection.execute("CREATE TABLE \(name) (lat float8, lng float8, weight float8, price float8)")
            for chunk in stride(from: 0, to: points.count, by: 100) {
                var rows: [String] = []
                var parameters: [String?] = []
                for point in points[chunk..<min(chunk + 100, points.count)] {
                    let n = parameters.count
                    rows.append("($\(n + 1)::float8, $\(n + 2)::float8, $\(n + 3)::float8)")
                    parameters += [
                        "\(point.coordinate.latitude)", "\(point.coordinate.longitude)", "\(point.intensity)",
                    ]
                }
                try connection.execute(
                    "INSERT INTO \(name) (lat, lng, weight) VALUES " + rows.joined(separator: ", "), parameters)
            }
        }
        try connection.execute("UPDATE \(name) SET price = floor(lng * 4)")
    }

    /// Means of the same tiles from memory and from the table, equal to float rounding; the
    /// same pixels shown.
    static func expectSameMeans(_ channels: PostgresMeanChannels, settings: HeatmapSettings) throws {
        let memory = HeatmapTileLayer(
            values: try ValueIndex(points: points, values: values), settings: settings, cacheBytes: 0)
        let database = HeatmapTileLayer(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings, cacheBytes: 0)
        #expect(try memory.meanRange() == database.meanRange())
        var shown = 0
        for scale in [1, 2] {
            for tile in PostgresSourceTests.tiles {
                let a = try memory.mean(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                let b = try database.mean(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                #expect((a == nil) == (b == nil), "tile \(tile) at scale \(scale)")
                guard let a, let b else { continue }
                let span = max(1, channels.values.upperBound - channels.values.lowerBound)
                for (x, y) in zip(a.means, b.means) {
                    #expect(x.isNaN == y.isNaN, "tile \(tile) at scale \(scale)")
                    if !x.isNaN, !y.isNaN {
                        shown += 1
                        #expect(abs(Double(x) - Double(y)) <= 1e-4 * span, "tile \(tile): \(x) vs \(y)")
                    }
                }
            }
        }
        #expect(shown > 10_000)
    }

    @Test("an imported and a plain table give the in-memory mean, its range and its shown pixels")
    func sameAsMemory() throws {
        let cluster = try TestCluster.require()
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        for (name, imported) in [("priced", true), ("plain_priced", false)] {
            try Self.table(name, imported: imported, cluster: cluster)
            let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: name))
            let channels = try source.meanChannels(valueColumn: "price")
            let positive = zip(Self.points, Self.values).filter { $0.0.intensity > 0 }.map(\.1)
            #expect(channels.values == (positive.min() ?? 0)...(positive.max() ?? 0))
            #expect(channels.rows == positive.count)
            try Self.expectSameMeans(channels, settings: settings)
        }
        settings.minimumDensity = 0.5
        settings.radius = 35
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "priced"))
        try Self.expectSameMeans(try source.meanChannels(valueColumn: "price"), settings: settings)
    }

    @Test("a missing column, or rows without a value, are errors naming the column; nothing is left out silently")
    func refusals() throws {
        let cluster = try TestCluster.require()
        try Self.table("priced_nulls", imported: true, cluster: cluster)
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("UPDATE priced_nulls SET price = NULL WHERE lng > 145")
        let nulls = try #require(
            try connection.execute("SELECT count(*) FROM priced_nulls WHERE price IS NULL AND weight > 0").text(0, 0))
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "priced_nulls"))
        do {
            _ = try source.meanChannels(valueColumn: "price")
            Issue.record("rows without a value were accepted")
        } catch {
            #expect(error.description.contains("column price: \(nulls) rows"), "\(error.description)")
        }
        #expect(throws: PostgresError.columnMissing(table: "priced_nulls", column: "cost")) {
            try source.meanChannels(valueColumn: "cost")
        }
        // Left out with a filter, the rest draws.
        let filtered = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "priced_nulls", filter: "price IS NOT NULL"))
        #expect(try filtered.meanChannels(valueColumn: "price").rows > 0)
    }

    @Test("aggregate=mean over a served table: the library's tile from the same channels, and 400 without values")
    func served() async throws {
        let cluster = try TestCluster.require()
        try Self.table("priced_served", imported: true, cluster: cluster)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "priced_served"))
        let summary = try source.summary()
        let channels = try source.meanChannels(valueColumn: "price")
        var data = LayerData(source: channels.density, count: summary.rows, bounds: summary.bounds)
        data.sourceValues = SourceMeanChannel(shiftedValues: channels.shiftedValues, values: channels.values)
        let priced = try ServedLayer(name: "priced", data: data)
        let plain = try ServedLayer(
            name: "plain", data: LayerData(source: source, count: summary.rows, bounds: summary.bounds))
        let stats = ServerStats()
        let service = try TileService(layers: [priced, plain], options: ServerOptions(), stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(), responder: service, stats: stats)
        server.start()
        defer { server.shutdown(grace: 2) }
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        settings.valueRange = 570...590
        let expected = try HeatmapTileLayer(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings
        ).tileFor(x: 57, y: 39, zoom: 6)
        let base = "http://127.0.0.1:\(server.port)"
        let mean = try await ServedTableTests.get("\(base)/priced/6/57/39.png?aggregate=mean&value-range=570,590")
        #expect(mean.status == 200)
        #expect(Array(mean.body) == expected.png)
        let sum = try await ServedTableTests.get("\(base)/priced/6/57/39.png")
        #expect(sum.status == 200 && sum.body != mean.body, "the density by default")
        let refused = try await ServedTableTests.get("\(base)/plain/6/57/39.png?aggregate=mean")
        #expect(refused.status == 400)
    }

    /// Runs the built `heatmap` (beside the test bundle): its status, standard output and error.
    static func heatmap(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let run = try HeatmapCommand.run(arguments)
        return (run.status, run.standardOutput, run.standardError)
    }

    @Test("tile and info --postgres --aggregate mean --value COL: the library's tile, the value range")
    func commands() throws {
        let cluster = try TestCluster.require()
        try Self.table("priced_command", imported: true, cluster: cluster)
        let output = TestScratch.folder.appendingPathComponent("mean-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let table = ["--postgres", cluster.url, "--table", "priced_command"]
        let tile = try Self.heatmap(
            ["tile"] + table + [
                "6/57/39@2x", "--aggregate", "mean", "--value", "price", "--min-density", "0.5",
                "--output", output.path,
            ])
        #expect(tile.status == 0, "\(tile.errors)")
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "priced_command"))
        let channels = try source.meanChannels(valueColumn: "price")
        var settings = HeatmapSettings.paletteDefault  // The command's 255-entry colour map.
        settings.aggregate = .mean
        settings.minimumDensity = 0.5
        let expected = try HeatmapTileLayer(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings
        ).tileFor(x: 57, y: 39, zoom: 6, scale: 2)
        #expect(FileManager.default.contents(atPath: output.path).map { [UInt8]($0) } == expected.png)
        let info = try Self.heatmap(["info"] + table + ["--value", "price"])
        #expect(info.status == 0, "\(info.errors)")
        let range = "values of price: min \(channels.values.lowerBound), max \(channels.values.upperBound)"
        #expect(info.output.contains(range), "\(info.output)")
        let missing = try Self.heatmap(["tile"] + table + ["6/57/39", "--aggregate", "mean", "--value", "cost"])
        #expect(missing.status == 1 && missing.errors.contains("no column cost"), "\(missing.errors)")
        #expect(!missing.errors.contains(TestCluster.password))
    }
}
