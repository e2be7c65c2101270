import Foundation
import HeatmapKit
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
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-tiles-\(UUID().uuidString)-\(name)")
            .path
    }

    /// Metadata for tests.
    static func metadata(scale: Int = 1, options: [String: String] = ["radius": "20"]) -> TileMetadata {
        TileMetadata(
            name: "test", description: "a test", attribution: "nobody",
            bounds: PointBounds(south: -39, west: 141, north: -34, east: 150),
            center: TileCenter(longitude: 145, latitude: -37, zoom: 6), minZoom: 0, maxZoom: 8, scale: scale,
            options: options)
    }

    /// The built `heatmap` executable beside the test bundle.
    static var executable: URL {
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
            .deletingLastPathComponent()
        return (products ?? Bundle.main.bundleURL).appendingPathComponent("heatmap")
    }

    /// What a process printed and how it ended.
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs a program to its end (bounded: the programs run here end by themselves in seconds).
    static func run(_ executable: URL, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorText = ErrorCollector(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: errorText.text())
    }

    /// Runs `heatmap` with arguments.
    static func heatmap(_ arguments: [String]) throws -> Run { try run(executable, arguments) }

    /// The path of a program on `PATH`, if any.
    static func program(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// Reads a pipe to its end on another thread, so that a process filling both pipes never blocks.
final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
