import CPostgres

extension PostgresConnection {
    /// Starts `COPY … FROM STDIN`: the data follows in ``sendCopyData(_:)`` calls, then
    /// ``endCopy()`` (or ``abortCopy(reason:)``); no other statement may run in between.
    ///
    /// - Throws: ``PostgresError`` when the server refuses the statement.
    func beginCopy(_ sql: String) throws(PostgresError) {
        try check(PQexec(connection, sql), expecting: [PGRES_COPY_IN])
    }

    /// Sends bytes of the data (libpq buffers them and writes when its buffer fills).
    ///
    /// - Throws: ``PostgresError/connectionLost(reason:)``.
    func sendCopyData(_ bytes: [UInt8]) throws(PostgresError) {
        guard !bytes.isEmpty else { return }
        let sent = bytes.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                PQputCopyData(connection, $0.baseAddress, Int32(truncatingIfNeeded: $0.count))
            }
        }
        guard sent == 1 else { throw lost() }
    }

    /// Ends the data; returns the rows the server copied.
    ///
    /// - Throws: ``PostgresError`` when the server refused the data (a row breaking a check,
    ///   say) or the connection broke.
    func endCopy() throws(PostgresError) -> Int {
        guard PQputCopyEnd(connection, nil) == 1 else { throw lost() }
        let result = try finishCommand()
        return Int(String(cString: PQcmdTuples(result.handle))) ?? 0
    }

    /// Makes the `COPY` under way fail with `reason`, so that the server keeps none of its
    /// rows (the transaction around it must then be rolled back).
    func abortCopy(reason: String) {
        PQputCopyEnd(connection, reason)
        _ = try? finishCommand()
    }
}
