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

    /// Sets what ``ConnectionPool`` sets on every connection it opens (the benchmark's PostGIS
    /// connection then runs under the same settings as a tile's).
    @_spi(Benchmark)
    public func applyPoolSettings() throws(PostgresError) {
        for (name, value) in ConnectionPool.sessionSettings {
            try execute("SELECT set_config($1, $2, false)", [name, value])
        }
    }
}
