import Foundation
import HeatmapKit
import Synchronization

/// The built `heatmap` command beside the test bundle, run to its end, and the points files
/// the render and info tests give it.
enum HeatmapCommand {
    /// What a run printed and how it ended.
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static var executable: URL {
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
            .deletingLastPathComponent()
        return (products ?? Bundle.main.bundleURL).appendingPathComponent("heatmap")
    }

    /// Runs `heatmap` with `arguments` (bounded: each run here ends by itself in seconds). Standard
    /// error is collected on another thread, so a command filling both pipes never blocks.
    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let collected = Mutex<Data>(Data())
        let done = DispatchSemaphore(value: 0)
        let reader = errors.fileHandleForReading
        DispatchQueue.global().async {
            let data = reader.readDataToEndOfFile()
            collected.withLock { $0 = data }
            done.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: collected.withLock { $0 }, as: UTF8.self))
    }

    /// A fresh path in the temporary folder (nothing made there).
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-pg-\(UUID().uuidString)-\(name)").path
    }

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
