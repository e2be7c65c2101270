import HeatmapCore
import HeatmapKit

/// What went wrong talking to PostgreSQL, with a message that says what and why. Messages
/// never hold a password: connection strings are shown without it and the server's and
/// libpq's texts are scrubbed of it.
public enum PostgresError: Error, Sendable, Hashable, CustomStringConvertible, SourceFailure {
    /// The server could not be reached or refused the connection.
    case connectionFailed(target: String, reason: String)
    /// The connection broke while in use.
    case connectionLost(reason: String)
    /// A statement failed; `sqlState` is the server's five-character code.
    case queryFailed(reason: String, sqlState: String?)
    /// A statement ran longer than the configured timeout and was cancelled.
    case timedOut(reason: String)
    /// `import` would write into a table that exists, without `--append` or `--replace`.
    case tableExists(String)
    /// The table does not exist (or is not visible to the user).
    case tableMissing(String)
    /// A column the source needs is missing from the table.
    case columnMissing(table: String, column: String)
    /// An answer from the server that the source cannot use; the text says why.
    case invalidAnswer(String)
    /// The table changed since the version of the source that was asked (its cached tiles
    /// and M(z) values stand for `expected`): ask again, of the version of `found`.
    case changed(expected: Int64, found: Int64)
    /// A `--geometry` column that cannot give EPSG:4326 points; the reason says what it holds.
    case geometryUnusable(table: String, column: String, reason: String)
    /// `import --attach` cannot give the table a change log; the reason says why and what to do.
    case cannotAttach(table: String, reason: String)
    /// `import` would make, replace or change an object (`kind` and `name`) that exists and was
    /// not made by HeatmapKit (`found` says what it is); nothing was written.
    case notMadeByHeatmapKit(kind: String, name: String, found: String)
    /// A table name PostgreSQL would cut (more than 63 bytes in the database's encoding).
    case nameTooLong(name: String, bytes: Int)
    /// The row condition (`--where`) is not one valid SQL condition on the table; the reason
    /// says why (PostgreSQL's message, without the statement or any connection detail).
    case invalidFilter(filter: String, reason: String)
    /// A `--time` or `--categories` column that is missing or of a type that cannot be one; the
    /// reason names its type and what is allowed.
    case filterColumnUnusable(table: String, column: String, reason: String)

    /// A sentence for the user.
    public var description: String {
        switch self {
        case .connectionFailed(let target, let reason):
            return "could not connect to PostgreSQL (\(target)): \(reason)"
        case .connectionLost(let reason):
            return "the connection to PostgreSQL was lost: \(reason)"
        case .queryFailed(let reason, let state):
            return "PostgreSQL: \(reason)" + (state.map { " (SQLSTATE \($0))" } ?? "")
        case .timedOut(let reason):
            return "PostgreSQL: the query took too long and was cancelled: \(reason)"
        case .tableExists(let table):
            return "table \(table) exists already: add --append to add rows to it or --replace to start afresh"
        case .tableMissing(let table):
            return "table \(table) does not exist"
        case .columnMissing(let table, let column):
            return "table \(table) has no column \(column)"
        case .invalidAnswer(let reason):
            return "PostgreSQL: unexpected answer: \(reason)"
        case .changed(let expected, let found):
            return "the table changed (change \(found), the tiles being drawn are of change \(expected)): ask again"
        case .geometryUnusable(let table, let column, let reason),
            .filterColumnUnusable(let table, let column, let reason):
            return "table \(table), column \(column): \(reason)"
        case .cannotAttach(let table, let reason):
            return "table \(table): cannot attach the change log: \(reason)"
        case .notMadeByHeatmapKit(let kind, let name, let found):
            return "import would make or change the \(kind) \(name), but one of that name exists and was not made by "
                + "HeatmapKit (\(found)); nothing was written: rename or drop it, or import under another --table name"
        case .nameTooLong(let name, let bytes):
            return "the name \(name) is \(bytes) bytes long; PostgreSQL keeps at most 63 bytes of a name: choose a "
                + "shorter one"
        case .invalidFilter(let filter, let reason):
            return "--where \"\(filter)\" is not a valid SQL condition: \(reason)"
        }
    }

    /// Whether a statement ran longer than the timeout and was cancelled.
    public var isTimeout: Bool {
        if case .timedOut = self { return true }
        return false
    }

    /// Whether the error is the database being unreachable or too slow (a server answers 503),
    /// rather than a mistake in the request or the table.
    public var isUnavailable: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .timedOut, .changed: return true
        default: return false
        }
    }
}
