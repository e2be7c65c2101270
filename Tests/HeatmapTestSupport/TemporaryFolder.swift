import Foundation

/// A fresh folder under the temporary directory, `heatmap-PREFIX-UUID`, removed by `remove()`.
public struct TemporaryFolder: Sendable {
    /// Where it is.
    public let url: URL

    /// Makes the folder.
    ///
    /// - Throws: what `FileManager` throws when it cannot be made.
    public init(_ prefix: String = "tiles") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("heatmap-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Its path.
    public var path: String { url.path }

    /// The path of `relative` inside it (nothing made there).
    public func file(_ relative: String) -> String { url.appendingPathComponent(relative).path }

    /// Writes `bytes` at `relative` (folders made as needed).
    ///
    /// - Throws: what `FileManager` and `Data.write` throw.
    public func write(_ bytes: [UInt8], to relative: String) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
    }

    /// Removes it and all it holds.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
