import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Tiles drawn from PostgreSQL against the same points in memory, on a throwaway cluster.
@Suite(.serialized, .needsPostgres) struct PostgresSourceTests {
    /// Police stations, points either side of the antimeridian, one beyond the Mercator limit
    /// and one of weight 0.
    static let points: [WeightedLatLng] = {
        let path = Bundle.module.url(forResource: "police_stations", withExtension: "json", subdirectory: "Fixtures")
        let stations = path.flatMap { try? JSONPointReader.read(contentsOf: $0.path) } ?? []
        var points = stations
        for i in 0..<40 {
            let lng = i < 20 ? 179.9 + Double(i % 5) * 0.015 : -179.99 + Double(i % 5) * 0.02
            points.append(
                WeightedLatLng(
                    coordinate: Coordinate(latitude: -16 + Double(i / 5) * 0.01, longitude: lng),
                    intensity: 0.5 + Double(i % 3)))
        }
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: 89, longitude: 10), intensity: 4))
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 10), intensity: 0))
        return points
    }()

    static let tiles: [(zoom: Int, x: Int, y: Int)] = [
        (0, 0, 0), (3, 7, 4), (3, 0, 4), (6, 57, 39), (7, 115, 78), (10, 924, 628), (6, 63, 34), (6, 0, 34),
        (12, 3698, 2513),
    ]

    /// Checks that a layer from the database draws what one from memory draws.
    static func expectSameTiles(_ source: PostgresSource, as points: [WeightedLatLng], scales: [Int] = [1, 2, 3])
        throws
    {
        let memory = HeatmapTileLayer(index: try PointIndex(points: points))
        let database = HeatmapTileLayer(source: source)
        for scale in scales {
            for tile in tiles {
                let m = try memory.normalization(zoom: tile.zoom, scale: scale)
                let d = try database.normalization(zoom: tile.zoom, scale: scale)
                #expect(abs(m - d) <= 1e-6 * m, "M(\(tile.zoom)) at scale \(scale): \(m) in memory, \(d) from SQL")
                let a = try memory.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                let b = try database.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                #expect((a == nil) == (b == nil), "tile \(tile) at scale \(scale)")
                if let a, let b {
                    let worst = zip(a.values, b.values).map { abs($0 - $1) / max($0, $1, .leastNormalMagnitude) }
                        .max()
                    #expect((worst ?? 0) <= 1e-6, "tile \(tile) at scale \(scale)")
                }
                let pngA = try memory.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                let pngB = try database.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                #expect(pngA == pngB, "PNG of tile \(tile) at scale \(scale)")
            }
        }
    }

    @Test("an imported table gives the tiles, intensities and M(z) of the points in memory, scales 1-3")
    func importedTable() throws {
        let cluster = try TestCluster.require()
        let summary = try PostgresImport.run(
            points: Self.points, into: "stations", connection: cluster.conninfo, mode: .replace)
        #expect(summary.rows == Self.points.count)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "stations"))
        #expect(source.isImported)
        #expect(source.suggestedIndex == nil)
        try Self.expectSameTiles(source, as: Self.points)
    }

    @Test("the database's positions are the index's to the unit")
    func positions() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try PositionSQL.install(on: connection)
        let probes: [(Double, Double)] = [
            (0, 0), (-37.8136, 144.9631), (85.05112878, 180), (-85.06, -180), (90, 179.99999999), (-90, 540.5),
            (1e-300, -1e-300), (45.000000001, -0.000000001), (-16.0, 179.99),
        ]
        for (lat, lng) in probes {
            let row = try connection.execute(
                "SELECT heatmap_unit_x($2::float8), heatmap_unit_y($1::float8), heatmap_key($1::float8, $2::float8)",
                ["\(lat)", "\(lng)"])
            let x = UInt64(WebMercator.unitX(longitude: lng))
            let y = UInt64(WebMercator.unitY(latitude: lat))
            #expect(row.text(0, 0) == "\(x)", "unit x of \(lng)")
            #expect(row.text(0, 1) == "\(y)", "unit y of \(lat)")
            #expect(row.text(0, 2) == "\(Int64(bitPattern: KeyRanges.key(x: x, y: y)))", "key of \(lat), \(lng)")
        }
    }

    @Test("import refuses an existing table without --append or --replace; append adds, replace starts afresh")
    func importModes() throws {
        let cluster = try TestCluster.require()
        let few = Array(Self.points.prefix(10))
        _ = try PostgresImport.run(points: few, into: "modes", connection: cluster.conninfo, mode: .replace)
        #expect(throws: PostgresError.tableExists("modes")) {
            try PostgresImport.run(points: few, into: "modes", connection: cluster.conninfo, mode: .create)
        }
        _ = try PostgresImport.run(points: few, into: "modes", connection: cluster.conninfo, mode: .append)
        let connection = try PostgresConnection(cluster.conninfo)
        #expect(try connection.execute("SELECT count(*) FROM modes").text(0, 0) == "20")
        _ = try PostgresImport.run(points: few, into: "modes", connection: cluster.conninfo, mode: .replace)
        #expect(try connection.execute("SELECT count(*) FROM modes").text(0, 0) == "10")
        try connection.execute("DROP TABLE IF EXISTS plain_modes")
        try connection.execute("CREATE TABLE plain_modes (lat float8, lng float8)")
        #expect(throws: PostgresError.self) {
            try PostgresImport.run(points: few, into: "plain_modes", connection: cluster.conninfo, mode: .append)
        }
        // The summaries hold the rows as imported, and stay in use as the rows change (LiveSummaries).
        let fresh = "SELECT \(CellSummaries.freshCondition(parameter: 1, level: 2))"
        #expect(try connection.execute(fresh, ["public.modes", "24"]).text(0, 0) == "t")
        #expect(try connection.execute(fresh, ["public.modes", "13"]).text(0, 0) == "f", "no level 13")
        #expect(try connection.execute("SELECT min(level) FROM modes_cells").text(0, 0) != nil)
        // A user's own INSERT gets x, y and key from the trigger, and shows in the next tiles.
        try connection.execute("INSERT INTO modes (lat, lng, weight) VALUES (-37.8, 144.9, 7), (-37.6, 145.2, 2)")
        // and a row moved gets its position again.
        try connection.execute("UPDATE modes SET lat = -37.85, lng = 144.95 WHERE weight = 2")
        #expect(try connection.execute(fresh, ["public.modes", "24"]).text(0, 0) == "t", "kept exact by the triggers")
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "modes"))
        #expect(source.layout.summaries != nil)
        try Self.expectSameTiles(
            source,
            as: few + [
                WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9), intensity: 7),
                WeightedLatLng(coordinate: Coordinate(latitude: -37.85, longitude: 144.95), intensity: 2),
            ], scales: [1])
    }

    @Test("a plain table of the user's: positions in SQL, the index it needs named, then used")
    func plainTable() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("DROP TABLE IF EXISTS \"User Points\"")
        try connection.execute("CREATE TABLE \"User Points\" (id serial, latitude float8, longitude float8, w real)")
        for chunk in stride(from: 0, to: Self.points.count, by: 100) {
            let part = Self.points[chunk..<min(chunk + 100, Self.points.count)]
            var values: [String] = []
            var parameters: [String?] = []
            for point in part {
                values.append(
                    "($\(parameters.count + 1)::float8, $\(parameters.count + 2)::float8, $\(parameters.count + 3)::real)"
                )
                parameters += [
                    "\(point.coordinate.latitude)", "\(point.coordinate.longitude)", "\(Float(point.intensity))",
                ]
            }
            try connection.execute(
                "INSERT INTO \"User Points\" (latitude, longitude, w) VALUES " + values.joined(separator: ", "),
                parameters)
        }
        let table = PostgresTable(
            name: "User Points", latitudeColumn: "latitude", longitudeColumn: "longitude", weightColumn: "w")
        let slow = try PostgresSource(connection: cluster.conninfo, table: table)
        #expect(!slow.isImported)
        let statement = try #require(slow.suggestedIndex)
        #expect(statement.contains("heatmap_key"))
        try Self.expectSameTiles(slow, as: Self.points, scales: [3])
        try connection.execute(statement)
        let fast = try PostgresSource(connection: cluster.conninfo, table: table)
        #expect(fast.suggestedIndex == nil)
        try Self.expectSameTiles(fast, as: Self.points, scales: [2])
        // A filter is raw SQL on the rows.
        let filtered = try PostgresSource(
            connection: cluster.conninfo,
            table: PostgresTable(
                name: "User Points", latitudeColumn: "latitude", longitudeColumn: "longitude", weightColumn: "w",
                filter: "longitude > 0"))
        try Self.expectSameTiles(filtered, as: Self.points.filter { $0.coordinate.longitude > 0 }, scales: [1])
        #expect(throws: PostgresError.columnMissing(table: "User Points", column: "lat")) {
            try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "User Points"))
        }
        #expect(throws: PostgresError.tableMissing("nowhere")) {
            try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "nowhere"))
        }
    }

    @Test("the password never appears in errors or in what is shown of a connection string")
    func password() throws {
        let secret = "hunter2-S3cret"
        let urls = [
            "postgresql://me:\(secret)@127.0.0.1:1/db", "host=127.0.0.1 port=1 password=\(secret) user=me",
            "host=127.0.0.1 password = '\(secret) x' port=1", "postgresql://127.0.0.1:1/db?user=me&password=\(secret)",
        ]
        for url in urls {
            #expect(!ConnectionString(url).description.contains(secret), "\(url)")
            #expect(!ConnectionString(url).description.contains("S3cret"), "\(url)")
            do {
                _ = try PostgresConnection(ConnectionString(url))
                Issue.record("connected to a closed port")
            } catch {
                #expect(!error.description.contains("S3cret"), "\(error.description)")
                #expect(error.isUnavailable)
            }
        }
        let cluster = try TestCluster.require()
        let wrong = "postgresql://postgres:\(secret)@127.0.0.1:\(cluster.port)/postgres"
        do {
            _ = try PostgresConnection(ConnectionString(wrong))
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(error.description.contains("password authentication failed"), "\(error.description)")
            #expect(!error.description.contains("S3cret"), "\(error.description)")
        }
        let connection = try PostgresConnection(cluster.conninfo)
        do {
            try connection.execute("SELECT '\(TestCluster.password)'::int")
            Issue.record("a bad statement succeeded")
        } catch {
            #expect(!error.description.contains(TestCluster.password), "\(error.description)")
        }
    }
}
