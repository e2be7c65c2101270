import Foundation
import HeatmapKit
import HeatmapServer
import Testing

@testable import HeatmapPostgres

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A table's bounds (`info`, TileJSON) as a file's report gives the same points: the smallest
/// longitude interval, across the antimeridian when that is shorter.
@Suite(.serialized, .needsPostgres) struct TableBoundsTests {
    /// Points at `longitudes`, each at a few latitudes around -16.
    static func points(_ longitudes: [Double]) -> [WeightedLatLng] {
        longitudes.enumerated().flatMap { i, lng in
            (0..<3).map { j in
                WeightedLatLng(
                    coordinate: Coordinate(latitude: -16 + Double(i) * 0.5 + Double(j) * 0.01, longitude: lng),
                    intensity: 1 + Double(j))
            }
        }
    }

    /// The TileJSON of a layer named `edge` over `data`, served on loopback.
    static func tileJSON(_ data: LayerData) async throws -> String {
        let layer = try ServedLayer(name: "edge", data: data)
        let stats = ServerStats()
        let service = try TileService(layers: [layer], options: ServerOptions(), stats: stats)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(), responder: service, stats: stats)
        server.start()
        defer { server.shutdown(grace: 2) }
        let answer = try await ServedTableTests.get("http://127.0.0.1:\(server.port)/edge.json")
        #expect(answer.status == 200)
        return String(decoding: answer.body, as: UTF8.self).replacingOccurrences(
            of: "127.0.0.1:\(server.port)", with: "HOST")
    }

    @Test(
        "points at 179.9 and -179.9 give bounds crossing 180 (west > east), and the table's TileJSON is the file's",
        arguments: [
            ([179.9, -179.9], true),
            ([179.95, 179.99, -179.9, -179.5], true),
            ([-170, 20, 170], true),
            ([-100, -80, 100], true), ([-100, 60, 100], false),
            ([10, 20.5], false),
            ([-179.9, 179.9], true),
        ])
    func antimeridian(longitudes: [Double], crosses: Bool) async throws {
        let cluster = try TestCluster.require()
        let points = Self.points(longitudes)
        let file = try HeatmapCommand.csv(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fromFile = try LayerData.load(path: file)
        let expected = try #require(fromFile.bounds)
        #expect((expected.west > expected.east) == crosses, "\(expected)")
        // An imported table and a plain one of the user's.
        _ = try PostgresImport.run(points: points, into: "edge_imported", connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("DROP TABLE IF EXISTS edge_plain")
        try connection.execute("CREATE TABLE edge_plain (lat float8, lng float8, weight float8)")
        for point in points {
            try connection.execute(
                "INSERT INTO edge_plain VALUES ($1::float8, $2::float8, $3::float8)",
                ["\(point.coordinate.latitude)", "\(point.coordinate.longitude)", "\(point.intensity)"])
        }
        let memoryJSON = try await Self.tileJSON(fromFile)
        for name in ["edge_imported", "edge_plain"] {
            let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: name))
            let summary = try source.summary()
            #expect(summary.bounds == expected, "\(name): \(String(describing: summary.bounds)) vs \(expected)")
            #expect(try source.extent(sampling: false).bounds == expected, "\(name)")
            let served = try await Self.tileJSON(
                LayerData(source: source, count: summary.rows, bounds: summary.bounds))
            #expect(served == memoryJSON, "\(name)")
        }
        // `info` prints the same bounds line for the table as for the file.
        let boundsLine = { (run: HeatmapCommand.Run) in
            run.standardOutput.split(separator: "\n").first { $0.hasPrefix("bounds: ") }.map(String.init)
        }
        let fileInfo = try HeatmapCommand.run(["info", file])
        let tableInfo = try HeatmapCommand.run(["info", "--postgres", cluster.url, "--table", "edge_imported"])
        #expect(tableInfo.status == 0, "\(tableInfo.standardError)")
        #expect(boundsLine(tableInfo) != nil && boundsLine(tableInfo) == boundsLine(fileInfo), "\(tableInfo)")
        #expect(boundsLine(tableInfo)?.hasSuffix("(crossing the antimeridian)") == crosses)
    }
}
