import Foundation

/// A fresh folder `PREFIX-UUID` in the process's scratch folder (``TestScratch``), removed by
/// `remove()` or, at the latest, when the process exits.
public struct TemporaryFolder: Sendable {
    /// Where it is.
    public let url: URL

    /// Makes the folder.
    ///
    /// - Throws: what `FileManager` throws when it cannot be made.
    public init(_ prefix: String = "tiles") throws {
        url = TestScratch.folder.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
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
