import Testing

@testable import HeatmapPostgres

/// The session settings of the pool's connections, read back from the server.
@Suite(.serialized, .needsPostgres) struct PoolSettingsTests {
    @Test("the pool's connections force generic plans, sort and JIT off; an M(z) transaction chooses plans again")
    func settings() throws {
        let cluster = try TestCluster.require()
        let pool = ConnectionPool(conninfo: cluster.conninfo, statementTimeoutMilliseconds: 0)
        try pool.with { (connection) throws(PostgresError) in
            #expect(try connection.execute("SHOW plan_cache_mode").text(0, 0) == "force_generic_plan")
            #expect(try connection.execute("SHOW enable_sort").text(0, 0) == "off")
            #expect(try connection.execute("SHOW jit").text(0, 0) == "off")
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try connection.choosePlansInTransaction()
            #expect(try connection.execute("SHOW plan_cache_mode").text(0, 0) == "auto")
            try connection.execute("COMMIT")
            // Only for that transaction: the tiles' statements after it have generic plans again.
            #expect(try connection.execute("SHOW plan_cache_mode").text(0, 0) == "force_generic_plan")
        }
    }
}
