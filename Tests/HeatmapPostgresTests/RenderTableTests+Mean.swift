import Foundation
import HeatmapKit
import HeatmapTiles
import Testing

@testable import HeatmapPostgres

extension RenderTableTests {
    /// Writes `points` as `lat,lng,weight,price` with each price ⌊4·lng⌋ (as MeanSourceTests values them).
    static func pricedCSV(_ points: [WeightedLatLng]) throws -> String {
        let path = HeatmapCommand.temporaryPath("priced.csv")
        var text = "lat,lng,weight,price\n"
        for point in points {
            let price = (point.coordinate.longitude * 4).rounded(.down)
            text += "\(point.coordinate.latitude),\(point.coordinate.longitude),\(point.intensity),\(price)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "render --postgres --aggregate mean --value COL writes the file's mean tiles in every output, z0 and antimeridian",
        .needsPostgres)
    func meanTable() throws {
        let cluster = try TestCluster.require()
        let points = MeanSourceTests.points
        let file = try Self.pricedCSV(points)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let imported = try HeatmapCommand.run(
            ["import", file, "--postgres", cluster.url, "--table", "render_priced", "--replace"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let connection = try PostgresConnection(cluster.conninfo)
        try connection.execute("ALTER TABLE render_priced ADD COLUMN price float8")
        try connection.execute("UPDATE render_priced SET price = floor(lng * 4)")
        let table = ["--postgres", cluster.url, "--table", "render_priced"]
        for options in [
            ["--aggregate", "mean", "--value", "price", "--radius", "25"],
            ["--aggregate", "mean", "--value", "price", "--scale", "2", "--bounds", "170,-20,-170,-10"],
        ] {
            try Self.expectSame(table: table, file: file, options: options)
        }
        // A value the table lacks is named, and nothing is written.
        let output = HeatmapCommand.temporaryPath("missing.mbtiles")
        let missing = try HeatmapCommand.run(
            ["render"] + table + ["--zoom", "0-2", "--output", output, "--aggregate", "mean", "--value", "cost"])
        #expect(missing.status != 0 && missing.standardError.contains("cost"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
