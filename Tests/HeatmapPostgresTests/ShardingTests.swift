import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// A table sharded over two PostgreSQL servers through a coordinator's `postgres_fdw`
/// partitions: the same tiles and M(z) as one server and as memory, with each partition's
/// `GROUP BY` run on its shard.
@Suite(.serialized, .needsPostgres) struct ShardingTests {
    /// The police stations and the antimeridian points of ``PostgresSourceTests``, with a
    /// seeded cluster around São Paulo on the other shard.
    static let points: [WeightedLatLng] = {
        var state: UInt64 = 0x5EED
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let cluster = (0..<600).map { _ in
            WeightedLatLng(
                coordinate: Coordinate(
                    latitude: -23.55 + (next() - 0.5) * 0.2, longitude: -46.63 + (next() - 0.5) * 0.2),
                intensity: 0.5 + next() * 1.5)
        }
        return PostgresSourceTests.points + cluster
    }()

    /// z0, both sides of the antimeridian, the dense Melbourne and São Paulo tiles, others;
    /// the first three at scales 1 to 3, the others at scale 1 (each M(z) from SQL costs many
    /// queries).
    static let tiles: [(zoom: Int, x: Int, y: Int)] = [
        (0, 0, 0), (6, 0, 34), (10, 924, 628), (3, 2, 4), (6, 63, 34), (8, 94, 145), (11, 758, 1161),
    ]

    /// The three clusters, started once for the suite and removed at the process's exit.
    static let shared: Result<ShardedCluster, any Error> = Result {
        let cluster = try ShardedCluster()
        atexit { ShardingTests.stopShared() }
        try cluster.build(table: "sharded", points: points)
        return cluster
    }

    private static func stopShared() {
        if case .success(let cluster) = shared { cluster.stop() }
    }

    /// The clusters (tests that call it carry ``Testing/Trait/needsPostgres``).
    static func require() throws -> ShardedCluster {
        _ = try TestCluster.require()
        return try shared.get()
    }

    /// Asks the coordinator for the plan of the statement a query sends.
    static func plan(of query: WeightQuery, source: PostgresSource, on connection: PostgresConnection) throws
        -> String
    {
        let (sql, parameters) = source.statement(for: query)
        let result = try connection.execute("EXPLAIN (VERBOSE) " + sql, parameters)
        return (0..<result.rowCount).compactMap { result.text($0, 0) }.joined(separator: "\n")
    }

    @Test("tiles, intensities and M(z) from the coordinator equal one server's and memory's, scales 1-3")
    func sameTiles() throws {
        let cluster = try Self.require()
        let single = try TestCluster.require()
        for (number, shard) in cluster.shards.enumerated() {
            let rows = try PostgresConnection(shard.conninfo).execute("SELECT count(*) FROM sharded_\(number + 1)")
            #expect((Int(rows.text(0, 0) ?? "") ?? 0) > 40, "shard \(number + 1) holds rows")
        }
        _ = try PostgresImport.run(
            points: Self.points, into: "sharded_single", connection: single.conninfo, mode: .replace)
        let coordinator = try PostgresSource(
            connection: cluster.coordinator.conninfo, table: PostgresTable(name: "sharded"),
            statementTimeout: .seconds(60))
        #expect(coordinator.layout.partitionShift == 60)
        #expect(coordinator.layout.summaries == nil)
        let recording = RecordingSource(coordinator)
        let layers = [
            HeatmapTileLayer(index: try PointIndex(points: Self.points)),
            HeatmapTileLayer(
                source: try PostgresSource(connection: single.conninfo, table: PostgresTable(name: "sharded_single"))),
            HeatmapTileLayer(source: recording),
        ]
        for scale in 1...3 {
            for tile in Self.tiles.prefix(scale == 1 ? Self.tiles.count : 3) {
                let m = try layers.map { try $0.normalization(zoom: tile.zoom, scale: scale) }
                #expect(m.allSatisfy { abs($0 - m[0]) <= 1e-6 * m[0] }, "M(\(tile.zoom)) at scale \(scale): \(m)")
                let intensities = try layers.map {
                    try $0.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)
                }
                #expect(intensities.allSatisfy { ($0 == nil) == (intensities[0] == nil) }, "tile \(tile) @\(scale)x")
                if let a = intensities[0] {
                    for b in intensities.dropFirst().compactMap({ $0 }) {
                        let worst = zip(a.values, b.values).map { abs($0 - $1) / max($0, $1, .leastNormalMagnitude) }
                        #expect((worst.max() ?? 0) <= 1e-6, "tile \(tile) at scale \(scale)")
                    }
                }
                let pngs = try layers.map { try $0.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale) }
                #expect(pngs.allSatisfy { $0 == pngs[0] }, "PNG of tile \(tile) at scale \(scale)")
            }
        }
        // Every statement sent, the tiles' and M(z)'s: the GROUP BY runs on the shards.
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        try connection.execute("SET enable_partitionwise_aggregate = on")
        let queries = Set(recording.queries.withLock { $0 })
        #expect(queries.count > 50)
        for query in queries {
            let plan = try Self.plan(of: query, source: coordinator, on: connection)
            let remote = plan.split(separator: "\n").filter { $0.contains("Remote SQL:") }
            #expect(!remote.isEmpty, "\(plan)")
            #expect(remote.allSatisfy { $0.contains("GROUP BY") && $0.contains("sum(") }, "\(plan)")
            #expect(!plan.contains("Aggregate  ("), "an aggregate on the coordinator: \(plan)")
        }
    }

    @Test("a tile's key ranges prune to the shards that hold them; z0 asks both")
    func pruning() throws {
        let cluster = try Self.require()
        let source = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: "sharded"))
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        try connection.execute("SET enable_partitionwise_aggregate = on")
        let cases: [(zoom: Int, x: Int, y: Int, partitions: [String])] = [
            (0, 0, 0, ["sharded_1", "sharded_2"]), (8, 94, 145, ["sharded_1"]), (10, 924, 628, ["sharded_2"]),
        ]
        for tile in cases {
            let recording = RecordingSource(source)
            _ = try HeatmapTileLayer(source: recording).intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: 2)
            let queries = recording.queries.withLock { $0 }
            #expect(!queries.isEmpty)
            // A tile beside the antimeridian asks for its wrapped columns apart: the union.
            var scanned: Set<String> = []
            var plans: [String] = []
            for query in queries {
                let plan = try Self.plan(of: query, source: source, on: connection)
                scanned.formUnion(["sharded_1", "sharded_2"].filter { plan.contains("Aggregate on (public.\($0) ") })
                plans.append(plan)
            }
            #expect(scanned.sorted() == tile.partitions, "tile \(tile.zoom)/\(tile.x)/\(tile.y): \(plans)")
        }
    }

    @Test("rows written through the coordinator show in the next tiles, import --append's too")
    func liveData() throws {
        let cluster = try Self.require()
        let few = Array(Self.points.prefix(80)) + Array(Self.points.suffix(80))
        try cluster.build(table: "sharded_live", points: few)
        let table = PostgresTable(name: "sharded_live")
        let source = try PostgresSource(connection: cluster.coordinator.conninfo, table: table)
        let first = try #require(try source.changeCount())
        // An INSERT through the coordinator gives x, y and key (routing needs the key).
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        try connection.execute(
            """
            INSERT INTO sharded_live (lat, lng, weight, x, y, key) SELECT lat, lng, 7, heatmap_unit_x(lng), \
            heatmap_unit_y(lat), heatmap_key(lat, lng) FROM (VALUES (-37.8::float8, 144.9::float8), \
            (-23.5, -46.6)) AS v (lat, lng)
            """)
        #expect(try source.changeCount() == first + 1)
        let added = [(-37.8, 144.9), (-23.5, -46.6)].map {
            WeightedLatLng(coordinate: Coordinate(latitude: $0.0, longitude: $0.1), intensity: 7)
        }
        let tiles = [(0, 0, 0), (3, 2, 4), (10, 924, 628), (8, 94, 145)]
        let memory = HeatmapTileLayer(index: try PointIndex(points: few + added))
        let database = HeatmapTileLayer(source: source)
        for (zoom, x, y) in tiles {
            #expect(try memory.tileFor(x: x, y: y, zoom: zoom) == database.tileFor(x: x, y: y, zoom: zoom), "\(zoom)")
        }
        // import --append copies through the coordinator (row by row, routed to the shards).
        let more = Array(Self.points.dropFirst(80).prefix(40))
        _ = try PostgresImport.run(
            points: more, into: "sharded_live", connection: cluster.coordinator.conninfo, mode: .append)
        let summarised = try PostgresSource(connection: cluster.coordinator.conninfo, table: table)
        #expect(summarised.layout.summaries == nil, "a sharded table has no summaries")
        #expect(try connection.execute("SELECT to_regclass('sharded_live_cells') IS NULL").text(0, 0) == "t")
        let all = HeatmapTileLayer(index: try PointIndex(points: few + added + more))
        let drawn = HeatmapTileLayer(source: summarised)
        for (zoom, x, y) in tiles {
            #expect(try all.tileFor(x: x, y: y, zoom: zoom) == drawn.tileFor(x: x, y: y, zoom: zoom), "\(zoom)")
            let (m, d) = (try all.normalization(zoom: zoom), try drawn.normalization(zoom: zoom))
            #expect(abs(m - d) <= 1e-6 * m, "M(\(zoom)): \(m) in memory, \(d) from the coordinator")
        }
    }
}
