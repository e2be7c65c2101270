extension PostgresConnection {
    /// Lets PostgreSQL choose between custom and generic plans again, until the transaction
    /// ends (`plan_cache_mode = auto` for it alone): the pool's connections force generic plans,
    /// which suit a tile's statement, while an M(z) search's statements over regions of every
    /// size keep the choice they had.
    func choosePlansInTransaction() throws(PostgresError) {
        try execute("SELECT set_config('plan_cache_mode', 'auto', true)")
    }
}
