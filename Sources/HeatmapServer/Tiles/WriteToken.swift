import Foundation

/// The secret that `POST` and `DELETE /{layer}/points` must present as
/// `Authorization: Bearer TOKEN`. It never prints: its description is `***`.
package struct WriteToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    private let bytes: [UInt8]

    /// A token from its text (surrounding whitespace and line ends dropped).
    ///
    /// - Throws: ``LayerLoadError`` when nothing is left, or the text holds spaces or controls
    ///   (a header could not carry it).
    package init(_ text: String) throws(LayerLoadError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw LayerLoadError("the write token is empty") }
        guard trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw LayerLoadError("the write token must be printable ASCII without spaces")
        }
        bytes = Array(trimmed.utf8)
    }

    /// Reads the token from the first line of a file (`--write-token-file`).
    ///
    /// - Throws: ``LayerLoadError`` naming the file (never its content).
    package static func load(path: String) throws(LayerLoadError) -> WriteToken {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LayerLoadError("\(path): the write token file cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        do {
            return try WriteToken(line)
        } catch {
            throw LayerLoadError("\(path): \(error.description)")
        }
    }

    /// Whether an `Authorization` value is `Bearer` with this token, compared in time that
    /// depends on the lengths only, never on where the bytes differ.
    package func accepts(authorization: String?) -> Bool {
        guard let authorization else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let given = Array(parts[1].trimmingWhitespace().utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ bytes.count)
        for i in 0..<max(given.count, bytes.count) {
            let a = i < given.count ? given[i] : 0
            let b = i < bytes.count ? bytes[i] : 0
            difference |= a ^ b
        }
        return difference == 0 && given.count == bytes.count
    }

    /// `***`: the token never appears in output.
    package var description: String { "***" }
    /// `***`.
    package var debugDescription: String { "***" }
}
