import Foundation
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles

/// Fixtures, temporary places and the built `heatmap` command for the HeatmapTiles tests.
enum Fixtures {
    /// The path of a fixture file.
    static func path(_ name: String) -> String {
        Bundle.module.resourceURL?.appendingPathComponent("Fixtures/\(name)").path ?? name
    }

    /// The police stations of Victoria (345 points).
    static let policeStations: [WeightedLatLng] =
        (try? JSONPointReader.read(contentsOf: path("police_stations.json"))) ?? []

    /// A fresh path in the temporary folder (nothing made there).
    static func temporaryPath(_ name: String) -> String { TestProgram.temporaryPath("tiles", name) }

    /// Metadata for tests.
    static func metadata(scale: Int = 1, options: [String: String] = ["radius": "20"]) -> TileMetadata {
        TileMetadata(
            name: "test", description: "a test", attribution: "nobody",
            bounds: PointBounds(south: -39, west: 141, north: -34, east: 150),
            center: TileCenter(longitude: 145, latitude: -37, zoom: 6), minZoom: 0, maxZoom: 8, scale: scale,
            options: options)
    }

    /// The built `heatmap` executable beside the test bundle.
    static var executable: URL { TestProgram.heatmap }

    /// What a process printed and how it ended.
    typealias Run = TestProgram.Run

    /// Runs a program to its end (bounded: the programs run here end by themselves in seconds).
    static func run(_ executable: URL, _ arguments: [String]) throws -> Run {
        try TestProgram.run(executable, arguments)
    }

    /// Runs `heatmap` with arguments.
    static func heatmap(_ arguments: [String]) throws -> Run { try TestProgram.heatmap(arguments) }

    /// The path of a program on `PATH`, if any.
    static func program(_ name: String) -> URL? { TestProgram.program(name) }
}
