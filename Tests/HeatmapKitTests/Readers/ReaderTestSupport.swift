import Foundation
import HeatmapKit
import HeatmapTestSupport

/// Fixtures and temporary files for the reader tests.
enum ReaderFiles {
    /// A fixture of Fixtures/readers.
    static func fixture(_ name: String) -> String { Fixtures.path("readers/\(name)") }

    /// Writes `text` to a new temporary file named `name` and returns its path.
    static func write(_ text: String, name: String = "points.csv") throws -> String {
        try write(Data(text.utf8), name: name)
    }

    /// Writes bytes to a new temporary file named `name` (in a folder of its own, inside
    /// ``TestScratch/folder``).
    static func write(_ data: Data, name: String) throws -> String {
        let folder = TestScratch.folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// The error reading a file throws, or `nil` if it reads.
    static func error(reading path: String, options: PointReadOptions = .init()) -> PointFileError? {
        do {
            _ = try PointFileReader.read(path: path, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// The error of reading `text` as a file named `name`, as its description with the
    /// folder left out (`points.csv:3: ...`).
    static func message(_ text: String, name: String = "points.csv", options: PointReadOptions = .init()) throws
        -> String?
    {
        let path = try write(text, name: name)
        return error(reading: path, options: options)?.description.replacingOccurrences(
            of: (path as NSString).deletingLastPathComponent + "/", with: "")
    }

    /// The points of a file as read, in file order.
    static func points(_ path: String, options: PointReadOptions = .init()) throws -> [WeightedLatLng] {
        try JSONPointReader.read(contentsOf: path, options: options)
    }
}
