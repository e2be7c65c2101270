import CSQLite
import Dispatch

/// One SQLite connection (a class, to own the handle), used from one thread at a time.
final class SQLiteDatabase {
    let handle: OpaquePointer
    let path: String
    /// The longest one statement may run, from its ``SQLiteStatement/bind(_:)``, or `nil`.
    private(set) var statementSeconds: Double?
    private let budget = StatementBudget()

    /// Opens (or with `create`, creates) the database at `path`.
    init(path: String, readOnly: Bool, create: Bool = false) throws(TileArchiveError) {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        let status = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw TileArchiveError(.unwritable, path: path, "cannot open: \(message)")
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Gives every statement from now on at most `seconds` from its start (its bind) to its last
    /// step: SQLite's progress handler interrupts it after that, so an endless recursive view
    /// of a hostile file ends in an error instead of a hung request and a busy core.
    func limitStatements(to seconds: Double) {
        statementSeconds = seconds
        let context = Unmanaged.passUnretained(budget).toOpaque()
        // Checked every 1,000 virtual machine instructions: a clock read each, a few microseconds apart.
        sqlite3_progress_handler(handle, 1000, statementOverBudget, context)
    }

    /// Starts the budget of a statement (when statements are limited).
    func startStatement() {
        guard let seconds = statementSeconds else { return }
        budget.deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    }

    /// Runs statements without results.
    func execute(_ sql: String) throws(TileArchiveError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        let text = message.map { String(cString: $0) } ?? ""
        sqlite3_free(message)
        guard status == SQLITE_OK else { throw error(status, doing: text) }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws(TileArchiveError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, doing: "prepare") }
        return SQLiteStatement(handle: statement, database: self)
    }

    /// The error for a status: the disk full, a file that is not a database, or any other.
    func error(_ status: Int32, doing what: String) -> TileArchiveError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xff {
        case SQLITE_INTERRUPT where statementSeconds != nil:
            let seconds = statementSeconds ?? 0
            return TileArchiveError(
                .invalid, path: path,
                "a query ran over its \(seconds) s budget and was stopped (an endless or huge view?)")
        case SQLITE_FULL:
            return TileArchiveError(.full, path: path, "the disk is full (\(message))")
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return TileArchiveError(.invalid, path: path, "is not an MBTiles (SQLite) file: \(message)")
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR:
            return TileArchiveError(.unwritable, path: path, "cannot be written: \(message)")
        default:
            let detail = what.isEmpty || what == message ? "" : " (\(what))"
            return TileArchiveError(.io, path: path, "SQLite error \(status): \(message)\(detail)")
        }
    }
}

/// A prepared statement of a ``SQLiteDatabase``.
final class SQLiteStatement {
    let handle: OpaquePointer
    let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds values to the parameters 1, 2, … in order, after a reset; the statement's budget
    /// (if its database has one) starts now.
    func bind(_ values: [SQLiteValue]) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        database.startStatement()
        for (offset, value) in values.enumerated() {
            let position = Int32(truncatingIfNeeded: offset + 1)
            switch value {
            case .integer(let number): sqlite3_bind_int64(handle, position, Int64(number))
            case .text(let text): sqlite3_bind_text(handle, position, text, -1, csqlite_transient())
            case .blob(let bytes):
                bytes.withUnsafeBytes { raw in
                    _ = sqlite3_bind_blob64(
                        handle, position, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(raw.count),
                        csqlite_transient())
                }
            }
        }
    }

    /// Steps once: `true` while a row is ready.
    func step() throws(TileArchiveError) -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        throw database.error(status, doing: "step")
    }

    /// Runs the statement to its end with these values.
    func run(_ values: [SQLiteValue]) throws(TileArchiveError) {
        bind(values)
        while try step() {}
    }

    /// The integer in column `index` of the current row.
    func integer(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// The text in column `index` of the current row.
    func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        return String(cString: pointer)
    }

    /// The type of column `index` of the current row: `SQLITE_BLOB`, `SQLITE_TEXT`, `SQLITE_NULL`, …
    func type(_ index: Int32) -> Int32 { sqlite3_column_type(handle, index) }

    /// The bytes in column `index` of the current row.
    func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// A value bound to a statement.
enum SQLiteValue {
    case integer(Int)
    case text(String)
    case blob([UInt8])
}

extension SQLiteDatabase {
    /// The rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// The deadline of the statement running on a connection, read by SQLite's progress handler.
private final class StatementBudget {
    var deadline: UInt64 = .max
}

/// SQLite's progress handler: non-zero (interrupt) once the running statement's deadline has passed.
private func statementOverBudget(_ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    let budget = Unmanaged<StatementBudget>.fromOpaque(context).takeUnretainedValue()
    return DispatchTime.now().uptimeNanoseconds > budget.deadline ? 1 : 0
}
