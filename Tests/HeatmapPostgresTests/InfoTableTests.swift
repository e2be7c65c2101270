import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// `heatmap info --postgres` suggests the zooms `heatmap info` suggests for the same points
/// from a file: the same definition (``SuggestedZooms``), over bounds and a sample from SQL.
@Suite(.serialized, .needsPostgres) struct InfoTableTests {
    /// The `suggested zooms: A...B (radius R)` line a run printed.
    static func suggestedLine(_ text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("suggested zooms: ") }.map(String.init)
    }

    @Test("up to 1000 rows, the sample is every row: the table's suggested zooms and bounds are the file's")
    func smallTable() throws {
        let cluster = try TestCluster.require()
        let points = PostgresSourceTests.points
        #expect(points.count <= PostgresSource.sampleSize)
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try PostgresImport.run(points: points, into: "info_points", connection: cluster.conninfo, mode: .replace)
        let report = try PointFileReader.read(path: file).report
        let extent = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "info_points"))
            .extent()
        #expect(extent.rows == report.pointsRead)
        #expect(
            extent.bounds == report.bounds, "\(String(describing: extent.bounds)) \(String(describing: report.bounds))")
        #expect(Set(extent.sample.map { [$0.x, $0.y] }) == Set(report.sample.map { [$0.x, $0.y] }))
        for radius in [10, 20, 50] {
            #expect(extent.suggestedZoomRange(radius: radius) == report.suggestedZoomRange(radius: radius))
            let fromTable = try HeatmapCommand.run(
                ["info", "--postgres", cluster.url, "--table", "info_points", "--radius", "\(radius)"])
            let fromFile = try HeatmapCommand.run(["info", file, "--radius", "\(radius)"])
            #expect(fromTable.status == 0 && fromFile.status == 0, "\(fromTable.standardError)")
            let line = Self.suggestedLine(fromTable.standardOutput)
            #expect(line != nil && line == Self.suggestedLine(fromFile.standardOutput), "\(fromTable.standardOutput)")
        }
    }

    @Test("across the antimeridian the bounds are the smallest interval, as a file's")
    func antimeridian() throws {
        let cluster = try TestCluster.require()
        let points = PostgresSourceTests.points.filter { abs($0.coordinate.longitude) > 179 }
        _ = try PostgresImport.run(points: points, into: "info_dateline", connection: cluster.conninfo, mode: .replace)
        let extent = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "info_dateline"))
            .extent()
        let bounds = try #require(extent.bounds)
        #expect(bounds.crossesAntimeridian && bounds.longitudeSpan < 1, "\(bounds)")
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try PointFileReader.read(path: file).report.bounds == bounds)
    }

    /// More rows than the sample: the file keeps a seeded reservoir sample, the table the first
    /// 1000 rows by a hash of the position, so the spacing's estimate may differ a little: the
    /// lowest zoom (from the bounds) is the same, the highest within one zoom.
    @Test("more than 1000 rows: the same lowest zoom, the highest within one of the file's")
    func sampledTable() throws {
        let cluster = try TestCluster.require()
        var points: [WeightedLatLng] = []
        var random = SplitMix64(seed: 0x5EED)
        func uniform() -> Double { Double.random(in: 0..<1, using: &random) }
        for _ in 0..<6000 {
            points.append(
                WeightedLatLng(
                    coordinate: Coordinate(latitude: 40 + uniform() * 2, longitude: -74 + uniform() * 3), intensity: 1))
        }
        _ = try PostgresImport.run(points: points, into: "info_sampled", connection: cluster.conninfo, mode: .replace)
        let extent = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "info_sampled"))
            .extent()
        #expect(extent.sample.count == PostgresSource.sampleSize && extent.rows == points.count)
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let report = try PointFileReader.read(path: file).report
        let fromTable = extent.suggestedZoomRange()
        let fromFile = report.suggestedZoomRange()
        #expect(fromTable.lowerBound == fromFile.lowerBound)
        #expect(abs(fromTable.upperBound - fromFile.upperBound) <= 1, "\(fromTable) against \(fromFile)")
    }
}
