/// Weight per quadtree cell and time bucket at coarse levels, in a table beside the rows
/// (`<table>_tcells`), for a table `import` made with `--time`: a time-filtered tile or M(z)
/// cell question at a coarse level reads one row a cell and bucket for the whole buckets of its
/// window, and the rows only for the rest of it (through `<table>_time`, the B-tree on the
/// time, or the key's, whichever the counts say costs less: see
/// ``TimeSummaryUse/route(_:codes:level:)``), rather than every row under the tile.
///
/// Buckets are days since 1970-01-01 UTC (`floor(seconds / 86400)`) and the aligned blocks of
/// 2^``spans`` days above them (8, 64 and 512 days): a window is whole blocks of the coarsest
/// spans that fit plus at most a few of each finer one (``TimeBuckets``). For each span, the
/// levels whose cells and buckets hold 2 rows or more on average are kept, as
/// ``CellSummaries`` keeps its levels.
///
/// `import` builds them in its transaction, after the copy, and records in
/// `heatmap_time_summaries` the change count they hold, the time column, each span's finest
/// level, the first and last day and a random build tag. A statement uses them only while the
/// table's change count and that tag are the ones the source read (checked in the same
/// statement); after a write by hand they are stale and the rows answer, exactly, until the
/// next `import --append` rebuilds them.
enum TimeSummaries {
    /// The spans kept: buckets of 2^span days.
    static let spans = [0, 3, 6, 9]

    /// A day, in seconds.
    static let day: Int64 = 86_400

    /// The table recording which time summaries hold which change count, shared by every table.
    static let sharedStatement =
        "CREATE TABLE IF NOT EXISTS heatmap_time_summaries (table_name text PRIMARY KEY, version bigint NOT NULL, "
        + "time_column text NOT NULL, built text NOT NULL, finest smallint[] NOT NULL, first_day bigint NOT NULL, "
        + "last_day bigint NOT NULL)"

    /// The columns of `heatmap_time_summaries`, as `format_type` spells them.
    static let stateColumns =
        "table_name text, version bigint, time_column text, built text, finest smallint[], first_day bigint, "
        + "last_day bigint"

    /// The columns of a table's time summaries, as `format_type` spells them.
    static let cellColumns =
        "span smallint, level smallint, bucket bigint, key bigint, x bigint, y bigint, weight double precision, "
        + "rows bigint"

    /// (Re)builds the time summaries of `table` (quoted; `name` its `schema.name`, `rows` its
    /// row count) over its `timestamptz` column `time` (quoted) into `cells` (quoted), and
    /// records them. In the caller's transaction, after the cell summaries (whose change count
    /// they share).
    ///
    /// Each span is staged as ``SummaryStaging`` stages the cell summaries, coarsest level
    /// first until one is too heavy, and only the levels kept are written: the days' levels
    /// from the rows, a coarser span's from the span below where that staged the level (a
    /// coarser span keeps the same levels or finer), from the rows for the finer ones.
    static func build(
        table: String, cells: String, name: String, time: String, column: String, rows: Int,
        on connection: PostgresConnection
    ) throws(PostgresError) {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(cells) (span int2 NOT NULL, level int2 NOT NULL, bucket int8 NOT NULL, "
                + "key int8 NOT NULL, x int8 NOT NULL, y int8 NOT NULL, weight float8 NOT NULL, rows int8 NOT NULL, "
                + "PRIMARY KEY (level, span, bucket, key))")
        try connection.execute("TRUNCATE \(cells)")
        try connection.execute("SET LOCAL work_mem = '256MB'")
        let seconds = "extract(epoch FROM \(time))::float8"
        let finite = "\(seconds) > '-Infinity'::float8 AND \(seconds) < 'Infinity'::float8"
        var finest: [Int] = []
        var below: (span: Int, staging: SummaryStaging, staged: SummaryStaging.Staged)?
        for span in spans {
            let staging = SummaryStaging(prefix: "pg_temp.heatmap_tcells_\(span)_", groups: ["bucket"])
            let staged = try staging.stage(
                rows: rows,
                from: { level in
                    // From the span below where it staged the level (fewer rows than the table's).
                    if let below, below.staged.levels.contains(level) {
                        return staging.from(
                            below.staging, level: level, groups: ["bucket >> \(span - below.span)"])
                    }
                    return staging.fromRows(
                        table: table, level: level, groups: ["floor(\(seconds) / 86400)::int8 >> \(span)"],
                        condition: finite)
                }, on: connection)
            try staging.insert(staged, into: cells, leading: { ["\(span)", "\($0)"] }, on: connection)
            if let below { try below.staging.drop(below.staged, on: connection) }
            finest.append(staged.finest)
            below = (span, staging, staged)
        }
        if let below { try below.staging.drop(below.staged, on: connection) }
        let range = try connection.execute(
            "SELECT coalesce(min(bucket), 0), coalesce(max(bucket), -1) FROM \(cells) WHERE span = 0 AND level = 24")
        let tag = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try connection.execute(
            """
            INSERT INTO heatmap_time_summaries AS s SELECT $1, coalesce((SELECT version FROM heatmap_versions
            WHERE table_name = $1), 0), $2, $3, $4::int2[], $5::int8, $6::int8 ON CONFLICT (table_name)
            DO UPDATE SET version = excluded.version, time_column = excluded.time_column, built = excluded.built,
            finest = excluded.finest, first_day = excluded.first_day, last_day = excluded.last_day
            """,
            [
                name, column, tag, "{" + finest.map(String.init).joined(separator: ",") + "}",
                range.text(0, 0) ?? "0", range.text(0, 1) ?? "-1",
            ])
    }

    /// The condition, true while the time summaries hold the table's current change count and
    /// the build the source read (parameters `name` and `built`, their numbers).
    static func freshCondition(name: Int, built: Int) -> String {
        """
        coalesce((SELECT s.version = v.version AND s.built = $\(built) FROM heatmap_time_summaries s \
        JOIN heatmap_versions v ON v.table_name = s.table_name WHERE s.table_name = $\(name)), false)
        """
    }
}
