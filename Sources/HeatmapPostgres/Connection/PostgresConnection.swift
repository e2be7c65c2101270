import CPostgres
import Foundation

/// One connection to a PostgreSQL server, owning libpq's `PGconn`: statements with bound
/// parameters, results in text or binary, and binary `COPY`.
///
/// Not for two threads at once: a ``PostgresSource`` hands its connections out one caller at
/// a time.
package final class PostgresConnection: @unchecked Sendable {
    let connection: OpaquePointer
    /// Texts never to show: the passwords of the connection string (`password`,
    /// `sslpassword`), of `PGPASSWORD`, and the ones libpq used (from a service file or
    /// `.pgpass`), and any a caller adds (a shard's, written into this server's catalog).
    var secrets: [String]
    /// What may be shown of the connection: host, port, database and user as libpq resolved
    /// them (see ``ConnectionString/description``).
    public let target: String
    /// The statements prepared on this connection, by their text: their names (see
    /// `PostgresConnection+Prepared.swift`).
    var preparedNames: [String: String] = [:]
    /// How many of its pool's setup statements the connection ran (see ``ConnectionPool/addSetup(_:)``).
    var setupDone = 0
    /// Whether the server is a coordinator of shards, to which statements with bound values
    /// go with generic plans, so that `postgres_fdw` sends the values on as parameters (see
    /// ``withBoundValuePlans(_:)``); set by the pool of a sharded table's source.
    var shipsBoundValues = false

    /// Connects; libpq reads what the string leaves out from `PG*` variables and `.pgpass`,
    /// with TCP keepalives on unless the string sets them (see
    /// ``ConnectionString/keepaliveDefaults``).
    ///
    /// - Throws: ``PostgresError/connectionFailed(target:reason:)``, naming only the host,
    ///   port, database and user (never libpq's reading of a string it cannot read, which
    ///   quotes its pieces).
    public init(_ conninfo: ConnectionString) throws(PostgresError) {
        var secrets = conninfo.secrets
        if let password = getenv("PGPASSWORD").map({ String(cString: $0) }) { secrets.append(password) }
        guard conninfo.options != nil else {
            throw .connectionFailed(target: conninfo.description, reason: conninfo.unreadableReason)
        }
        if let reason = conninfo.misreadReason { throw .connectionFailed(target: conninfo.description, reason: reason) }
        guard let connection = Self.connect(conninfo) else {
            throw .connectionFailed(target: conninfo.description, reason: "libpq could not allocate a connection")
        }
        // What libpq resolved (a service file's, `PG*` variables'), and the passwords it used.
        let resolved = Self.options(of: connection)
        secrets += resolved.filter { ["password", "sslpassword"].contains($0.keyword) }.map(\.value)
        if let used = PQpass(connection).map({ String(cString: $0) }) { secrets.append(used) }
        secrets = Array(Set(secrets.filter { !$0.isEmpty }))
        self.secrets = secrets
        target = ConnectionString.shown(resolved.isEmpty ? conninfo.options ?? [] : resolved).scrubbing(secrets)
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.message(PQerrorMessage(connection), secrets: secrets)
            PQfinish(connection)
            throw .connectionFailed(target: target, reason: reason)
        }
        self.connection = connection
        // Notices (`IF NOT EXISTS` skips, say) are not the user's business.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// The options a connection uses, as libpq reports them (`PQconninfo`): what the string
    /// set and what libpq filled in.
    static func options(of connection: OpaquePointer) -> [(keyword: String, value: String)] {
        guard let info = PQconninfo(connection) else { return [] }
        defer { PQconninfoFree(info) }
        var found: [(keyword: String, value: String)] = []
        var option = info
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { found.append((String(cString: keyword), String(cString: value))) }
            option += 1
        }
        return found
    }

    /// Adds texts never to show in this connection's messages (a shard's password that a
    /// statement of this connection writes into the catalog).
    func addSecrets(_ more: [String]) {
        secrets += more.filter { !$0.isEmpty && !secrets.contains($0) }
    }

    deinit {
        PQfinish(connection)
    }

    /// The database's encoding, as the server reported it at the start (`server_encoding`).
    var serverEncoding: ServerEncoding {
        ServerEncoding(name: PQparameterStatus(connection, "server_encoding").map { String(cString: $0) } ?? "UTF8")
    }

    /// Whether the connection is still up (libpq learns it has broken when a statement fails).
    public var isOK: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Runs one statement with parameters bound as text (`nil` is SQL NULL), and the values of its
    /// ``boundValue(_:)`` placeholders after them, answering rows in text or, with `binary`, in
    /// PostgreSQL's binary formats.
    ///
    /// - Throws: ``PostgresError/queryFailed(reason:sqlState:)``, ``PostgresError/timedOut(reason:)``
    ///   or ``PostgresError/connectionLost(reason:)``.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = [], binary: Bool = false) throws(PostgresError)
        -> PostgresResult
    {
        if shipsBoundValues, sql.utf8.contains(0) {
            let (sql, parameters) = try Self.binding(sql, parameters)
            return try withBoundValuePlans { () throws(PostgresError) in try execute(sql, parameters, binary: binary) }
        }
        let (sql, parameters) = try Self.binding(sql, parameters)
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer { values in
            PQexecParams(
                connection, sql, Int32(truncatingIfNeeded: parameters.count), nil, values.baseAddress, nil, nil,
                binary ? 1 : 0)
        }
        return try check(result, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
    }

    /// Runs `COPY … FROM STDIN (FORMAT binary)` and sends the data `produce` writes, a chunk at
    /// a time (`produce` answers `false` when done); returns the rows copied.
    public func copyIn(_ sql: String, produce: (inout [UInt8]) throws(PostgresError) -> Bool) throws(PostgresError)
        -> Int
    {
        try check(PQexec(connection, sql), expecting: [PGRES_COPY_IN])
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        var more = true
        while more {
            chunk.removeAll(keepingCapacity: true)
            do throws(PostgresError) {
                more = try produce(&chunk)
            } catch {
                PQputCopyEnd(connection, "import stopped")
                _ = try? finishCommand()
                throw error
            }
            if chunk.isEmpty { continue }
            let sent = chunk.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    PQputCopyData(connection, $0.baseAddress, Int32(truncatingIfNeeded: $0.count))
                }
            }
            guard sent == 1 else { throw lost() }
        }
        guard PQputCopyEnd(connection, nil) == 1 else { throw lost() }
        let result = try finishCommand()
        return Int(String(cString: PQcmdTuples(result.handle))) ?? 0
    }

    /// The result of the command under way, and reads results until none is left.
    func finishCommand() throws(PostgresError) -> PostgresResult {
        var last: PostgresResult?
        var failure: PostgresError?
        while let next = PQgetResult(connection) {
            do throws(PostgresError) {
                last = try check(next, expecting: [PGRES_COMMAND_OK])
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        guard let last else { throw lost() }
        return last
    }

    /// Quotes a table or column name as an SQL identifier: `"my ""table"""`; a dotted
    /// `schema.table` is quoted part by part.
    public static func quoted(identifier name: String) -> String {
        name.split(separator: ".", omittingEmptySubsequences: false)
            .map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
            .joined(separator: ".")
    }

    /// Wraps a result, throwing its error when its status is not one of `expected`.
    @discardableResult
    func check(_ result: OpaquePointer?, expecting expected: [ExecStatusType]) throws(PostgresError)
        -> PostgresResult
    {
        guard let result else { throw lost() }
        let wrapped = PostgresResult(result)
        let status = PQresultStatus(result)
        if expected.contains(status) { return wrapped }
        let reason = Self.message(PQresultErrorMessage(result), secrets: secrets)
        if PQstatus(connection) != CONNECTION_OK { throw .connectionLost(reason: reason) }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        if state == "57014" { throw .timedOut(reason: reason) }
        // Another session held a lock on the table longer than lock_timeout (see ConnectionPool).
        if state == "55P03" {
            throw .timedOut(reason: "another session holds a lock on the table (waited lock_timeout): \(reason)")
        }
        if let state, state.hasPrefix("08") || state == "57P01" { throw .connectionLost(reason: reason) }
        throw .queryFailed(reason: reason, sqlState: state)
    }

    func lost() -> PostgresError {
        .connectionLost(reason: Self.message(PQerrorMessage(connection), secrets: secrets))
    }

    /// libpq's (or the server's) message on one line, without the secrets.
    static func message(_ text: UnsafePointer<CChar>?, secrets: [String]) -> String {
        let raw = text.map { String(cString: $0) } ?? ""
        let line = raw.split(whereSeparator: \.isNewline).map { $0.trimmingPrefixSpaces() }.joined(separator: "; ")
        return (line.isEmpty ? "no message" : line).scrubbing(secrets)
    }
}

extension Substring {
    fileprivate func trimmingPrefixSpaces() -> String { String(drop { $0 == " " || $0 == "\t" }) }
}
