/// Weight per quadtree cell at coarse levels, in a table beside the rows (`<table>_cells`):
/// for pixels of zooms 0 to at most 10 (scale 1) or 9 (scale 2), a tile reads one row a pixel
/// rather than every point under it, as the in-memory index does with its summaries.
///
/// `import` builds them in its transaction (the levels whose cells hold 2 rows or more on
/// average: a level or two finer than the in-memory index's 4, for M(z)'s bounds at fine
/// zooms, see ``MaximumPlan``) and records the finest level and the table's change count in `heatmap_summaries`;
/// ``LiveSummaries``' triggers keep them exact through later writes and move that count
/// along, and a query uses them only while it is the table's (checked in the same statement).
enum CellSummaries {
    /// The finest and coarsest levels kept (cells of 2^level units).
    static let levels = 14...24

    /// The fewest rows a kept level's cells hold on average.
    static let minimumRowsPerCell = 2

    /// (Re)builds the summaries of `table` (quoted; `name` its `schema.name`, `rows` its row
    /// count, `prefix` its derived names', see ``ObjectNames``) into `cells` (quoted), keeping
    /// the levels whose cells hold ``minimumRowsPerCell`` rows or more on average, and the
    /// coarsest always; records the finest level kept and the change count they hold. In the
    /// caller's transaction.
    ///
    /// Each level is summed from the rows into a temporary table, coarsest first, until one
    /// has too many cells; only the levels kept are written to `cells`, in key order (the
    /// table's B-tree then grows at its end, and no level is written and deleted again): see
    /// ``SummaryStaging``.
    /// `preparable` stages them in plain tables of a name of their own instead, dropped in the
    /// same transaction, for a transaction that ends in `PREPARE TRANSACTION` (which refuses
    /// one that touched temporary tables). Either way no table of the user's is touched: the
    /// temporary ones are named in `pg_temp`, the plain ones are new (a random name, made with
    /// `CREATE`, which would fail rather than replace one).
    static func build(
        table: String, cells: String, name: String, rows: Int, prefix: String, preparable: Bool = false,
        on connection: PostgresConnection
    ) throws(PostgresError) {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(cells) (level int2 NOT NULL, key int8 NOT NULL, x int8 NOT NULL, "
                + "y int8 NOT NULL, weight float8 NOT NULL, PRIMARY KEY (level, key))")
        try connection.execute("ALTER TABLE \(cells) ADD COLUMN IF NOT EXISTS rows int8 NOT NULL DEFAULT 0")
        try connection.execute("TRUNCATE \(cells)")
        try connection.execute("SET LOCAL work_mem = '256MB'")
        let staging = SummaryStaging(
            prefix: preparable
                ? "heatmap_stage_\(String(UInt64.random(in: 0...UInt64.max), radix: 16))_" : "pg_temp.heatmap_cells_",
            preparable: preparable)
        let staged = try staging.stage(rows: rows, from: { staging.fromRows(table: table, level: $0) }, on: connection)
        try staging.insert(staged, into: cells, leading: { ["\($0)"] }, on: connection)
        try staging.drop(staged, on: connection)
        let finest = staged.finest
        try connection.execute(
            """
            INSERT INTO heatmap_summaries AS s SELECT $1, coalesce((SELECT version FROM heatmap_versions
            WHERE table_name = $1), 0), $2::int2 ON CONFLICT (table_name)
            DO UPDATE SET version = excluded.version, finest = excluded.finest
            """, [name, "\(finest)"])
        try LiveSummaries.install(table: table, cells: cells, prefix: prefix, on: connection)
    }

    /// The table that records which summaries hold which change count, shared by every table.
    static let sharedStatement =
        "CREATE TABLE IF NOT EXISTS heatmap_summaries (table_name text PRIMARY KEY, version bigint NOT NULL, "
        + "finest int2 NOT NULL)"

    /// SQL for `value`, a key as stored, shifted right by `bits` as an unsigned number.
    static func shifted(_ value: String, by bits: Int) -> String {
        let mask = bits == 0 ? "-1" : "\((UInt64(1) << UInt64(64 - bits)) - 1)"
        return "((\(value) >> \(bits)) & \(mask)::int8)"
    }

    /// The condition, true while the summaries hold the table's current change count and
    /// the level (parameter `level`) of the table (parameter `parameter`).
    static func freshCondition(parameter: Int, level: Int) -> String {
        """
        coalesce((SELECT s.version = v.version AND s.finest <= $\(level)::int2 FROM heatmap_summaries s \
        JOIN heatmap_versions v ON v.table_name = s.table_name WHERE s.table_name = $\(parameter)), false)
        """
    }
}
