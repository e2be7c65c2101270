/// Keeps a table's cell summaries exact as its rows change: statement triggers with
/// transition tables (`REFERENCING NEW TABLE` / `OLD TABLE`) add the new rows' weights and
/// counts per summary cell and subtract the old ones', drop cells left without rows, and
/// move the summaries' change count along with the table's (the change counter's trigger,
/// `<table>_changes`, fires first: triggers of one event fire in name order), so that tiles
/// keep reading the summaries after the user's own `INSERT`, `UPDATE` and `DELETE`.
/// `TRUNCATE` empties them.
enum LiveSummaries {
    /// The trigger function, shared by every table: `TG_ARGV[0]` is the quoted summaries table.
    static let function = """
        CREATE OR REPLACE FUNCTION heatmap_cells_change() RETURNS trigger LANGUAGE plpgsql AS $heatmap$
        DECLARE
            the_name text := TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME;
            the_cells text := TG_ARGV[0];
            the_finest int;
            the_cell text := '((r.key >> (2 * l)) & ((1::int8 << (64 - 2 * l)) - 1))';
        BEGIN
            SELECT s.finest INTO the_finest FROM heatmap_summaries s WHERE s.table_name = the_name;
            IF the_finest IS NULL OR the_finest > 24 THEN RETURN NULL; END IF;
            IF TG_OP = 'TRUNCATE' THEN
                EXECUTE format('TRUNCATE %s', the_cells);
            END IF;
            IF TG_OP IN ('DELETE', 'UPDATE') THEN
                EXECUTE format('INSERT INTO %1$s AS c (level, key, x, y, weight, rows) '
                    || 'SELECT l, %2$s, r.x >> l, r.y >> l, -sum(r.weight::float8), -count(*) '
                    || 'FROM heatmap_old_rows r, generate_series(%3$s, 24) l WHERE r.weight > 0 GROUP BY 1, 2, 3, 4 '
                    || 'ON CONFLICT (level, key) DO UPDATE SET weight = c.weight + excluded.weight, '
                    || 'rows = c.rows + excluded.rows', the_cells, the_cell, the_finest);
                EXECUTE format('DELETE FROM %1$s c USING (SELECT DISTINCT l, %2$s AS k FROM heatmap_old_rows r, '
                    || 'generate_series(%3$s, 24) l WHERE r.weight > 0) d '
                    || 'WHERE c.level = d.l AND c.key = d.k AND c.rows <= 0', the_cells, the_cell, the_finest);
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') THEN
                EXECUTE format('INSERT INTO %1$s AS c (level, key, x, y, weight, rows) '
                    || 'SELECT l, %2$s, r.x >> l, r.y >> l, sum(r.weight::float8), count(*) '
                    || 'FROM heatmap_new_rows r, generate_series(%3$s, 24) l WHERE r.weight > 0 GROUP BY 1, 2, 3, 4 '
                    || 'ON CONFLICT (level, key) DO UPDATE SET weight = c.weight + excluded.weight, '
                    || 'rows = c.rows + excluded.rows', the_cells, the_cell, the_finest);
            END IF;
            UPDATE heatmap_summaries s SET version = v.version FROM heatmap_versions v
            WHERE s.table_name = the_name AND v.table_name = the_name AND s.version = v.version - 1;
            RETURN NULL;
        END $heatmap$
        """

    /// (Re)creates the triggers of `table` (quoted; `prefix` its derived names', see
    /// ``ObjectNames``) that keep `cells` (quoted) exact.
    static func install(table: String, cells: String, prefix: String, on connection: PostgresConnection)
        throws(PostgresError)
    {
        // Two imports replacing the shared function at once collide: one at a time, until commit.
        try connection.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(PositionSQL.lock)"])
        try connection.execute(function)
        let argument = "'" + cells.replacing("'", with: "''") + "'"
        try StatementTriggers.install(
            on: table, prefix: prefix, infix: "summaries", call: "heatmap_cells_change(\(argument))",
            connection: connection)
    }
}
