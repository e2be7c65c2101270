import CPostgres

/// The rows a statement answered, owning libpq's `PGresult`.
package final class PostgresResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    /// The number of rows.
    public var rowCount: Int { Int(PQntuples(handle)) }
    /// The rows a command changed (`INSERT`, `UPDATE`, `DELETE`, `COPY`), 0 for others.
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The number of columns.
    public var columnCount: Int { Int(PQnfields(handle)) }

    /// Whether the value at `row`, `column` is SQL NULL.
    public func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column)) == 1
    }

    /// The value at `row`, `column` as text (text results), `nil` for NULL.
    public func text(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column),
            let value = PQgetvalue(handle, Int32(truncatingIfNeeded: row), Int32(truncatingIfNeeded: column))
        else { return nil }
        return String(cString: value)
    }

    /// The 8 bytes at `row`, `column` of a binary result (`int8` or `float8`) as a big-endian
    /// integer, `nil` for NULL or another length.
    func bits64(_ row: Int, _ column: Int) -> UInt64? {
        let r = Int32(truncatingIfNeeded: row)
        let c = Int32(truncatingIfNeeded: column)
        guard PQgetisnull(handle, r, c) == 0, PQgetlength(handle, r, c) == 8, let value = PQgetvalue(handle, r, c)
        else { return nil }
        var bits: UInt64 = 0
        for i in 0..<8 { bits = bits << 8 | UInt64(UInt8(bitPattern: value[i])) }
        return bits
    }

    /// An `int8` of a binary result.
    public func int64(_ row: Int, _ column: Int) -> Int64? { bits64(row, column).map { Int64(bitPattern: $0) } }

    /// A `float8` of a binary result.
    public func double(_ row: Int, _ column: Int) -> Double? { bits64(row, column).map { Double(bitPattern: $0) } }
}
