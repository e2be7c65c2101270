import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// M(z) from a table, by the one search over the table's answers to the cell question, equals
/// the brute-force maximum and memory's, on seeded random data the other tests do not use
/// (clusters, one across the antimeridian, one near the pole limit, a background), zooms 3 to
/// 16, scales 1 to 3, radii 10 to 50: from an imported table (its summaries), a filtered one
/// (the rows), a plain table with and without an index on the key (cells from its own
/// statement, else gathered from pixel statements), and the mean's two channels.
@Suite(.serialized, .needsPostgres) struct TableMaximumTests {
    /// The seeded points, a fifth of them (for the brute force's sake).
    static func points(seed: UInt64) -> [WeightedLatLng] {
        ClusteredPoints.points(seed: 100 + seed).enumerated().filter { $0.offset % 5 == Int(seed % 5) }.map(\.element)
    }

    /// A zoom, scale and radius of R ≤ 60 pixels (the brute force's cost grows with R²).
    static func kernel(seed: UInt64, case n: Int) throws -> (space: PixelSpace, kernel: GaussianKernel, name: String) {
        var random = SplitMix64(seed: seed * 31 + UInt64(n))
        let zoom = Int.random(in: 3...16, using: &random)
        let scale = Int.random(in: 1...3, using: &random)
        let radius = Int.random(in: 10...(60 / scale), using: &random)
        return (
            try PixelSpace(zoom: zoom, scale: scale), GaussianKernel(radius: radius * scale),
            "seed \(seed): zoom \(zoom) scale \(scale) radius \(radius)"
        )
    }

    /// `value` within float rounding of `expected` (memory's, or the brute force's in double).
    static func expectClose(_ value: Float, _ expected: Double, _ name: String, tolerance: Double = 1e-6) {
        #expect(expected > 0)
        #expect(abs(Double(value) - expected) <= tolerance * expected, "\(name): \(value), expected \(expected)")
    }

    @Test("imported, filtered and plain tables: the brute force's M(z) and memory's", arguments: 0..<3)
    func tables(seed: UInt64) throws {
        let cluster = try TestCluster.require()
        let points = Self.points(seed: seed)
        let name = "table_maximum_\(seed)"
        _ = try PostgresImport.run(points: points, into: name, connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("DROP TABLE IF EXISTS \(name)_plain, \(name)_keyed")
        try connection.execute("CREATE TABLE \(name)_plain AS SELECT lat, lng, weight FROM \(name)")
        try connection.execute("CREATE TABLE \(name)_keyed AS SELECT lat, lng, weight FROM \(name)")
        let keyed = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "\(name)_keyed"))
        try connection.execute(try #require(keyed.suggestedIndex))
        let sources = [
            ("imported", try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: name))),
            (
                "filtered",
                try PostgresSource(
                    connection: cluster.conninfo, table: PostgresTable(name: name, filter: "weight >= 0"))
            ),
            ("plain", try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "\(name)_plain"))),
            (
                "plain with a key index",
                try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "\(name)_keyed"))
            ),
        ]
        #expect(sources[0].1.answersCells && sources[0].1.layout.summaries != nil)
        #expect(!sources[2].1.answersCells && sources[3].1.answersCells)
        let index = try PointIndex(points: points)
        for n in 0..<2 {
            let (space, kernel, name) = try Self.kernel(seed: seed, case: n)
            let memory = index.maximumIntensity(space: space, kernel: kernel)
            Self.expectClose(
                memory, ReferenceRenderer.maximum(of: points, space: space, radius: kernel.radius), "\(name), memory",
                tolerance: 1e-5)
            for (kind, source) in sources {
                Self.expectClose(
                    try source.maximumIntensity(space: space, kernel: kernel), Double(memory), "\(name), \(kind)")
            }
        }
    }

    @Test("the mean's channels: M(z) of the density and of the weighted values, as the brute force's")
    func meanChannels() throws {
        let cluster = try TestCluster.require()
        let points = Self.points(seed: 7)
        _ = try PostgresImport.run(
            points: points, into: "table_maximum_mean", connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("ALTER TABLE table_maximum_mean ADD COLUMN price float8")
        try connection.execute("UPDATE table_maximum_mean SET price = floor(lng * 4)")
        let channels = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "table_maximum_mean")
        ).meanChannels(valueColumn: "price")
        // The weighted values: w · (v − LO), LO the lowest value of a point of positive weight.
        let values = points.map { ($0.coordinate.longitude * 4).rounded(.down) }
        let lowest = zip(points, values).filter { $0.0.intensity > 0 }.map(\.1).min() ?? 0
        let shifted = zip(points, values).map { point, value in
            WeightedLatLng(coordinate: point.coordinate, intensity: Double(Float(point.intensity)) * (value - lowest))
        }
        for n in 0..<2 {
            let (space, kernel, name) = try Self.kernel(seed: 7, case: n)
            Self.expectClose(
                try channels.density.maximumIntensity(space: space, kernel: kernel),
                ReferenceRenderer.maximum(of: points, space: space, radius: kernel.radius), "\(name), density",
                tolerance: 1e-5)
            Self.expectClose(
                try channels.shiftedValues.maximumIntensity(space: space, kernel: kernel),
                ReferenceRenderer.maximum(of: shifted, space: space, radius: kernel.radius), "\(name), values",
                tolerance: 1e-5)
        }
    }

    @Test("heatmap info --json prints the same M(z) for the table as for its points' file, in points and metres")
    func infoCommand() throws {
        let cluster = try TestCluster.require()
        let points = Self.points(seed: 9)
        _ = try PostgresImport.run(
            points: points, into: "table_maximum_info", connection: cluster.conninfo, mode: .replace)
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        struct Report: Decodable {
            struct Normalization: Decodable {
                var zoom: Int
                var value: Double
            }
            var normalization: [Normalization]
        }
        for options in [["--radius", "25", "--scale", "2"], ["--radius-meters", "3000", "--radius-latitude", "20"]] {
            let zooms = ["--zoom", "3,6,9,12,16", "--json"] + options
            let table = try HeatmapCommand.run(
                ["info", "--postgres", cluster.url, "--table", "table_maximum_info"] + zooms)
            let memory = try HeatmapCommand.run(["info", file] + zooms)
            #expect(table.status == 0 && memory.status == 0, "\(table.standardError) \(memory.standardError)")
            let a = try JSONDecoder().decode(Report.self, from: Data(table.standardOutput.utf8)).normalization
            let b = try JSONDecoder().decode(Report.self, from: Data(memory.standardOutput.utf8)).normalization
            #expect(a.map(\.zoom) == [3, 6, 9, 12, 16] && b.map(\.zoom) == a.map(\.zoom))
            for (x, y) in zip(a, b) {
                #expect(y.value > 0 && abs(x.value - y.value) <= 1e-6 * y.value, "\(options) M(\(x.zoom))")
            }
        }
    }
}
