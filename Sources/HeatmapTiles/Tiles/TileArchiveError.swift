/// Why a tile archive (MBTiles, PMTiles or a folder of tiles) could not be written or read.
public struct TileArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, for callers that act on it.
    public enum Kind: Sendable, Hashable {
        /// The output exists and neither overwriting nor resuming was asked for.
        case exists
        /// The path cannot be created, opened or written (a missing folder, no permission).
        case unwritable
        /// The disk (or the database's page limit) is full.
        case full
        /// The file is not an archive of the expected kind, or is damaged.
        case invalid
        /// Resuming was asked for an archive made with other options, or of a kind that cannot resume.
        case cannotResume
        /// Any other input or output error.
        case io
    }

    /// The kind of failure.
    public var kind: Kind
    /// The file or folder at fault.
    public var path: String
    /// What went wrong and what to do, without the path.
    public var reason: String

    /// Creates an error.
    package init(_ kind: Kind, path: String, _ reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
