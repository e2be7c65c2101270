import Foundation
import HeatmapKit
import HeatmapTestSupport

/// The built `heatmap` command beside the test bundle, run to its end, and the points files
/// the render and info tests give it.
enum HeatmapCommand {
    /// What a run printed and how it ended.
    typealias Run = TestProgram.Run

    /// Runs `heatmap` with `arguments` (bounded: each run here ends by itself in seconds).
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try TestProgram.heatmap(arguments, environment: environment)
    }

    /// A fresh path in the temporary folder (nothing made there).
    static func temporaryPath(_ name: String) -> String { TestProgram.temporaryPath("pg", name) }

    /// Writes `points` as a CSV file (`lat,lng,weight`, each number in its shortest exact form).
    static func csv(_ points: [WeightedLatLng]) throws -> String {
        let path = temporaryPath("points.csv")
        var text = "lat,lng,weight\n"
        for point in points {
            text += "\(point.coordinate.latitude),\(point.coordinate.longitude),\(point.intensity)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
