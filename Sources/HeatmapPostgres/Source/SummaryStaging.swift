/// The one way summaries are built (``CellSummaries`` and ``TimeSummaries``): each level's
/// cells (and groups beside the cell, such as a time bucket) summed into a staged table,
/// coarsest level first, until a level holds too many cells to be worth keeping; then only the
/// levels kept are written to the summaries' table, in key order within each group.
///
/// Staged tables have the columns `groups…, x, y, key, weight, rows`.
struct SummaryStaging {
    /// The staged tables' names, before the level.
    var prefix: String
    /// Whether the staged tables are plain `UNLOGGED` ones of a new name (for a transaction that
    /// ends in `PREPARE TRANSACTION`, which refuses one that touched temporary tables) rather
    /// than temporary ones.
    var preparable = false
    /// The columns beside the cell that a summary row is per (a time bucket), or none.
    var groups: [String] = []

    /// What ``stage(rows:from:on:)`` staged: the finest level kept, and the finest staged
    /// (one finer when a level was too heavy to keep).
    struct Staged {
        /// The finest level kept: every level from it to the coarsest is.
        var finest: Int
        /// The finest level staged, which a coarser grouping may be summed from.
        var finestStaged: Int
        /// The levels staged.
        var levels: ClosedRange<Int> { finestStaged...CellSummaries.levels.upperBound }
    }

    /// The staged table of `level`.
    func staged(_ level: Int) -> String { "\(prefix)\(level)" }

    /// Stages the levels coarsest first, each from `source(level)` (a `SELECT` of the staged
    /// columns), until one has more than `rows` / ``CellSummaries/minimumRowsPerCell`` rows
    /// (not kept; the coarsest is kept whatever its count).
    ///
    /// - Complexity: one statement a level staged, at most one level more than are kept.
    func stage(rows: Int, from source: (Int) -> String, on connection: PostgresConnection) throws(PostgresError)
        -> Staged
    {
        let levels = CellSummaries.levels
        var staged = Staged(finest: levels.upperBound + 1, finestStaged: levels.upperBound + 1)
        for level in levels.reversed() {
            if !preparable { try connection.execute("DROP TABLE IF EXISTS \(self.staged(level))") }
            let count = try connection.execute(
                "CREATE \(preparable ? "UNLOGGED " : "")TABLE \(self.staged(level)) AS \(source(level))"
            ).affectedRows
            staged.finestStaged = level
            if count > rows / CellSummaries.minimumRowsPerCell, level < levels.upperBound { break }
            staged.finest = level
        }
        return staged
    }

    /// A level's `SELECT` of the staged columns from the rows of `table` (quoted) of a positive
    /// weight meeting `condition`, each group computed by its expression in `groups` (in the
    /// order of ``groups``).
    func fromRows(table: String, level: Int, groups expressions: [String] = [], condition: String? = nil) -> String {
        let grouped = zip(expressions, groups).map { "\($0) AS \($1)" }
        let columns =
            grouped + [
                "x >> \(level) AS x", "y >> \(level) AS y",
                "\(CellSummaries.shifted("min(key)", by: 2 * level)) AS key", "sum(weight::float8) AS weight",
                "count(*) AS rows",
            ]
        let by = (1...(groups.count + 2)).map(String.init).joined(separator: ", ")
        return "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE weight > 0"
            + (condition.map { " AND \($0)" } ?? "") + " GROUP BY \(by)"
    }

    /// A level's `SELECT` of the staged columns summed from `other`'s staged table of the same
    /// level, each group computed by its expression in `groups` over `other`'s.
    func from(_ other: SummaryStaging, level: Int, groups expressions: [String]) -> String {
        let grouped = zip(expressions, groups).map { "\($0) AS \($1)" }
        let columns = grouped + ["x", "y", "key", "sum(weight) AS weight", "sum(rows)::int8 AS rows"]
        let by = (1...(groups.count + 3)).map(String.init).joined(separator: ", ")
        return "SELECT \(columns.joined(separator: ", ")) FROM \(other.staged(level)) GROUP BY \(by)"
    }

    /// Writes the levels kept of `staged` into `cells` (quoted), each row `leading(level)`
    /// first, then the groups, `key, x, y, weight, rows`, in the order of the groups and key.
    func insert(
        _ staged: Staged, into cells: String, leading: (Int) -> [String], on connection: PostgresConnection
    ) throws(PostgresError) {
        guard staged.finest <= CellSummaries.levels.upperBound else { return }
        let order = (groups + ["key"]).joined(separator: ", ")
        for level in staged.finest...CellSummaries.levels.upperBound {
            let columns = leading(level) + groups + ["key", "x", "y", "weight", "rows"]
            try connection.execute(
                "INSERT INTO \(cells) SELECT \(columns.joined(separator: ", ")) FROM \(self.staged(level)) "
                    + "ORDER BY \(order)")
        }
    }

    /// Drops the staged tables of `staged`.
    func drop(_ staged: Staged, on connection: PostgresConnection) throws(PostgresError) {
        guard staged.finestStaged <= CellSummaries.levels.upperBound else { return }
        for level in staged.levels { try connection.execute("DROP TABLE IF EXISTS \(self.staged(level))") }
    }
}
