/// A points file that could not be read, naming the file and the place in it.
///
/// Its ``description`` reads as compilers print errors: `path:line:column: reason`,
/// `path:line: reason`, or `path: reason` for the file as a whole, for example
/// `cities.csv:1042: latitude "91.5" is out of range -90...90`.
public struct PointFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given (`-` for standard input).
    public var path: String
    /// The 1-based line where the problem starts, or `nil` for the file as a whole.
    public var line: Int?
    /// The 1-based byte column in that line, where known.
    public var column: Int?
    /// What was wrong and what was expected.
    public var reason: String

    /// Creates an error for a file, or a line and column in it.
    package init(path: String, line: Int? = nil, column: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `path:line:column: reason`, with the line and column left out when unknown.
    public var description: String {
        var place = path == "-" ? "<stdin>" : path
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): \(reason)"
    }
}

extension String {
    /// The text with control characters escaped (`\n`, `\t`, `\u{1B}`), so that a message
    /// quoting a file's bytes stays on one line.
    var escapedForMessage: String {
        guard unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 32 || scalar.value == 127:
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
