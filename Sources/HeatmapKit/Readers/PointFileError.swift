/// A points file that could not be read, naming the file and the place in it.
public struct PointFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given.
    public var path: String
    /// Where in the file, e.g. "element 12" or "line 1042"; empty for the file as a whole.
    public var location: String
    /// What was wrong and what was expected.
    public var reason: String

    /// Creates an error for a place in a file.
    public init(path: String, location: String = "", reason: String) {
        self.path = path
        self.location = location
        self.reason = reason
    }

    /// `path: location: reason`, as compilers print it.
    public var description: String {
        location.isEmpty ? "\(path): \(reason)" : "\(path): \(location): \(reason)"
    }
}
