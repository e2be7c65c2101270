import CPostgres
import Foundation

extension PostgresConnection {
    /// The most statements kept prepared on one connection; past it, the oldest names are
    /// deallocated (a tile's statements take a handful of texts, so this is never reached in
    /// practice).
    static var preparedLimit: Int { 64 }

    /// Runs `sql` as ``execute(_:_:binary:)`` does, but as a named prepared statement of this
    /// connection, prepared the first time the text is seen: a tile's statement is then parsed
    /// (and, once PostgreSQL keeps its generic plan, planned) once per connection rather than
    /// once per tile, which is most of a sparse tile's time in the database.
    @discardableResult
    func executePrepared(_ sql: String, _ parameters: [String?], binary: Bool = false) throws(PostgresError)
        -> PostgresResult
    {
        // A statement with bound values (a filter's) is planned for them: see ``withBoundValuePlans(_:)``.
        if sql.utf8.contains(0) {
            let (sql, parameters) = try Self.binding(sql, parameters)
            return try withBoundValuePlans { () throws(PostgresError) in
                try executePrepared(sql, parameters, binary: binary)
            }
        }
        let name: String
        if let known = preparedNames[sql] {
            name = known
        } else {
            if preparedNames.count >= Self.preparedLimit {
                for (_, old) in preparedNames { _ = try? execute("DEALLOCATE \(old)") }
                preparedNames.removeAll()
            }
            let fresh = "heatmap_\(preparedNames.count)_\(UInt32.random(in: 0...UInt32.max))"
            let prepared = PQprepare(connection, fresh, sql, Int32(truncatingIfNeeded: parameters.count), nil)
            try check(prepared, expecting: [PGRES_COMMAND_OK])
            preparedNames[sql] = fresh
            name = fresh
        }
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer($0) }
        let result = values.withUnsafeBufferPointer { values in
            PQexecPrepared(
                connection, name, Int32(truncatingIfNeeded: parameters.count), values.baseAddress, nil, nil,
                binary ? 1 : 0)
        }
        return try check(result, expecting: [PGRES_TUPLES_OK, PGRES_COMMAND_OK])
    }
}
