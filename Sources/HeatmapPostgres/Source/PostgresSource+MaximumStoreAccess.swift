import HeatmapKit

extension PostgresSource {
    /// What this source may do with `heatmap_maxima`, found on its first M(z) (and then kept
    /// for every version): the table is made when missing and the user may; a lost connection
    /// answers ``MaximumStore/Access/none`` this once and asks again next time.
    func maximumStoreAccess() -> MaximumStore.Access {
        let store = hooks.maximumStore
        let known = store.access.withLock { $0 }
        guard known == .unknown else { return known }
        do throws(PostgresError) {
            let (found, line) = try pool.with { (connection) throws(PostgresError) in
                try findMaximumStoreAccess(on: connection)
            }
            store.settle(found, saying: line)
        } catch {
            return .none
        }
        return store.access.withLock { $0 }
    }

    /// The access `connection`'s user has, and the line to say about it (`nil` for none).
    func findMaximumStoreAccess(on connection: PostgresConnection) throws(PostgresError)
        -> (MaximumStore.Access, String?)
    {
        if layout.partitionShift != nil {
            let logs = try connection.execute(
                """
                SELECT CASE WHEN to_regclass('heatmap_shard_logs') IS NULL THEN 0 \
                ELSE (SELECT count(*) FROM heatmap_shard_logs WHERE table_name = $1) END
                """, [layout.qualifiedName])
            guard (logs.text(0, 0) ?? "0") != "0" else {
                return (
                    .none,
                    "M(z) values of \(table.name) are not kept in heatmap_maxima: it is sharded without the change "
                        + "log, so rows written on a shard would not move its change count (heatmap import "
                        + "--postgres URL --table \(table.name) --attach gives it the log)"
                )
            }
        }
        let rights = try connection.execute(
            """
            SELECT to_regclass('heatmap_maxima') IS NOT NULL, \
            coalesce(has_table_privilege(to_regclass('heatmap_maxima'), 'SELECT'), false), \
            coalesce(has_table_privilege(to_regclass('heatmap_maxima'), 'INSERT') \
            AND has_table_privilege(to_regclass('heatmap_maxima'), 'UPDATE') \
            AND has_table_privilege(to_regclass('heatmap_maxima'), 'DELETE'), false), pg_is_in_recovery()
            """)
        let flags = (0..<4).map { rights.text(0, $0) == "t" }
        guard flags[0] else { return try makeMaximumStore(on: connection) }
        // A table of that name that HeatmapKit did not make is never read or written.
        if case .foreign(let found) = try MaximumStore.object.find(on: connection) {
            return (
                .none,
                "M(z) values are not kept: a table heatmap_maxima exists that HeatmapKit did not make (\(found)); "
                    + "every M(z) is searched"
            )
        }
        guard flags[1] else {
            return (
                .none,
                "M(z) values kept in heatmap_maxima are not used: this user may not read it "
                    + "(GRANT SELECT ON heatmap_maxima TO …); every M(z) is searched"
            )
        }
        guard flags[2], !flags[3] else {
            let why = flags[3] ? "the server is a standby" : "this user may not write it"
            return (
                .read,
                "M(z) values found are not kept in heatmap_maxima: \(why) (GRANT INSERT, UPDATE, DELETE ON "
                    + "heatmap_maxima TO … on the primary); values kept there are used"
            )
        }
        return (.readWrite, nil)
    }

    /// Makes `heatmap_maxima` for a table imported before it existed (under the lock that
    /// schema changes by HeatmapKit take), or says why it cannot.
    func makeMaximumStore(on connection: PostgresConnection) throws(PostgresError) -> (MaximumStore.Access, String?) {
        do throws(PostgresError) {
            try connection.execute("BEGIN")
            try connection.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
            try connection.execute(MaximumStore.createStatement)
            try connection.execute(MaximumStore.object.markStatement)
            try connection.execute("COMMIT")
            return (.readWrite, nil)
        } catch {
            guard case .queryFailed = error else { throw error }
            if connection.isOK { _ = try? connection.execute("ROLLBACK") }
            return (
                .none,
                "M(z) values are not kept: table heatmap_maxima is missing and this user cannot make it (\(error)); "
                    + "every process searches M(z) again until a user who may create tables draws one M(z) "
                    + "(heatmap info --postgres URL --table \(table.name) --zoom 0)"
            )
        }
    }
}
