extension ShardChangeLog {
    /// `heatmap_gather(T)` on the coordinator: what the gathering trigger does for a statement
    /// on `T`, without one (and without a lock or a write when there is nothing new). If a shard's log (the rows of `heatmap_shard_logs` of `T`) holds
    /// rows newer than those copied, `T`'s change count is raised by one and those rows are
    /// copied into the coordinator's log under it; `true` if so. A server's poll calls it (see
    /// ``PostgresSource/gatherShardChanges()``) where it used to run `DELETE FROM T WHERE false`
    /// for the triggers, which needed `DELETE` on `T`.
    ///
    /// `SECURITY DEFINER`, so the caller needs only `EXECUTE` (revoked from `PUBLIC` when the
    /// function is first made, granted to no one; a grant survives later imports), with
    /// `search_path` pinned to the importer's schemas and `pg_temp` last.
    static let gatherCallFunction = """
        CREATE OR REPLACE FUNCTION heatmap_gather(the_table regclass) RETURNS boolean LANGUAGE plpgsql
        SECURITY DEFINER SET search_path = @SCHEMAS@, pg_temp AS $heatmap$
        DECLARE
            the_name text;
            the_version bigint;
            the_log text;
            the_seen bigint;
            the_newest bigint;
            the_pending boolean := false;
        BEGIN
            SELECT n.nspname || '.' || c.relname INTO the_name FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = the_table;
            -- Without locks first: a poll that finds nothing new writes nothing.
            FOR the_log, the_seen IN SELECT log, seen FROM heatmap_shard_logs WHERE table_name = the_name LOOP
                EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE table_name = $1 AND version > $2)', the_log)
                INTO the_pending USING the_name, the_seen;
                EXIT WHEN the_pending;
            END LOOP;
            IF NOT coalesce(the_pending, false) THEN RETURN false; END IF;
            FOR the_log, the_seen IN SELECT log, seen FROM heatmap_shard_logs WHERE table_name = the_name
                ORDER BY log FOR UPDATE LOOP
                EXECUTE format('SELECT max(version) FROM %s WHERE table_name = $1 AND version > $2', the_log)
                INTO the_newest USING the_name, the_seen;
                CONTINUE WHEN the_newest IS NULL;
                IF the_version IS NULL THEN
                    UPDATE heatmap_versions SET version = version + 1 WHERE table_name = the_name
                    RETURNING version INTO the_version;
                    IF the_version IS NULL THEN RETURN false; END IF;
                END IF;
                EXECUTE format('INSERT INTO heatmap_changes SELECT DISTINCT $1, $2, removed, level, x, y FROM %s '
                    || 'WHERE table_name = $1 AND version > $3 AND version <= $4', the_log)
                USING the_name, the_version, the_seen, the_newest;
                UPDATE heatmap_shard_logs SET seen = greatest(seen, the_newest)
                WHERE table_name = the_name AND log = the_log;
            END LOOP;
            IF the_version IS NULL THEN RETURN false; END IF;
            \(ChangeLog.functionPrune)
            RETURN true;
        END $heatmap$
        """

    /// The statement that (re)makes ``gatherCallFunction`` with the importer's schemas, and
    /// revokes it from `PUBLIC` only when it is new (so a `GRANT EXECUTE` survives imports).
    static let gatherCallStatement = """
        DO $install$
        DECLARE
            the_new boolean := to_regprocedure('heatmap_gather(regclass)') IS NULL;
        BEGIN
            EXECUTE replace($gather$\(gatherCallFunction)$gather$, '@SCHEMAS@', coalesce(
                (SELECT string_agg(quote_ident(s), ', ') FROM unnest(current_schemas(false)) s), 'public'));
            IF the_new THEN
                REVOKE ALL ON FUNCTION heatmap_gather(regclass) FROM PUBLIC;
            END IF;
        END $install$
        """
}
