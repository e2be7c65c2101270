extension PostgresConnection {
    /// Runs `sql` as a named prepared statement of this connection, as a tile's statement runs
    /// (see ``executePrepared(_:_:binary:)``): for the benchmark's PostGIS comparison, so that
    /// both sides are parsed and planned alike.
    @_spi(Benchmark)
    @discardableResult
    public func executeAsPrepared(_ sql: String, _ parameters: [String?], binary: Bool = false)
        throws(PostgresError) -> PostgresResult
    {
        try executePrepared(sql, parameters, binary: binary)
    }

    /// Runs `sql` as ``executeAsPrepared(_:_:binary:)`` does (binary) and reads each row's
    /// three values as a tile's rows are read (two `int8`, a `float8`), adding them nowhere:
    /// the benchmark's figure of the SQL alone. Returns the rows read.
    @_spi(Benchmark)
    public func executeReadingRows(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> Int {
        let result = try executePrepared(sql, parameters, binary: true)
        var read = 0
        for row in 0..<result.rowCount {
            let column = result.int64(row, 0)
            let line = result.int64(row, 1)
            let weight = result.double(row, 2)
            if column != nil || line != nil || weight != nil { read += 1 }
        }
        return read
    }

    /// Sets what ``ConnectionPool`` sets on every connection it opens (the benchmark's PostGIS
    /// connection then runs under the same settings as a tile's).
    @_spi(Benchmark)
    public func applyPoolSettings() throws(PostgresError) {
        for (name, value) in ConnectionPool.sessionSettings {
            try execute("SELECT set_config($1, $2, false)", [name, value])
        }
    }
}
