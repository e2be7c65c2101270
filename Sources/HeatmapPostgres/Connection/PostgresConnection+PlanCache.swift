import CPostgres

extension PostgresConnection {
    /// Lets PostgreSQL choose between custom and generic plans again, until the transaction
    /// ends (`plan_cache_mode = auto` for it alone): the pool's connections force generic plans,
    /// which suit a tile's statement, while an M(z) search's statements over regions of every
    /// size keep the choice they had.
    func choosePlansInTransaction() throws(PostgresError) {
        try execute("SELECT set_config('plan_cache_mode', 'auto', true)")
    }

    /// Runs `body` with plans made for each run's values (`plan_cache_mode = force_custom_plan`),
    /// for the statements of a filter: a generic plan cannot tell a day's window from a year's
    /// (it takes any range for 0.5% of the rows) and chose the time column's index for a month
    /// at zoom 14 (0.8 s for a tile whose key ranges hold a few rows), where with the values
    /// PostgreSQL takes the key ranges there and the time index for a day at zoom 4. Inside a
    /// transaction, for the rest of it; outside, the pool's setting comes back after `body`.
    func withCustomPlans<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try withPlans("force_custom_plan", body)
    }

    /// Runs `body`, a statement holding ``boundValue(_:)`` placeholders (a filter's values),
    /// with its plans: made for the values (``withCustomPlans(_:)``), but generic on a
    /// coordinator of shards (``shipsBoundValues``), where a plan made for the values would
    /// write them into the text of `postgres_fdw`'s remote statements as literals, and a
    /// generic one sends them to each shard as parameters (`$n`), which each shard then plans
    /// its own statement for.
    func withBoundValuePlans<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        guard shipsBoundValues else { return try withPlans("force_custom_plan", body) }
        // Outside a transaction the pool's own setting is generic already (an M(z) search's
        // transaction chooses again).
        if PQtransactionStatus(connection) == PQTRANS_IDLE { return try body() }
        return try withPlans("force_generic_plan", body)
    }

    /// Runs `body` with `plan_cache_mode = mode`, as ``withCustomPlans(_:)`` says.
    private func withPlans<T>(_ mode: String, _ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        let idle = PQtransactionStatus(connection) == PQTRANS_IDLE
        try execute("SELECT set_config('plan_cache_mode', $1, $2::bool)", [mode, idle ? "false" : "true"])
        guard idle else { return try body() }
        let pooled = ConnectionPool.sessionSettings.first { $0.0 == "plan_cache_mode" }?.1 ?? "auto"
        defer { _ = try? execute("SELECT set_config('plan_cache_mode', $1, false)", [pooled]) }
        return try body()
    }
}
