/// A table's time summaries as the source read them: their table, build tag, the finest level
/// of each span (``TimeSummaries/spans``, 25 for none) and the days they cover.
struct TimeSummaryState: Sendable, Hashable {
    /// The quoted table of time summaries.
    var cells: String
    /// The build's tag, which a statement checks.
    var built: String
    /// Each span's finest level kept.
    var finest: [Int]
    /// The first and last day of the rows summed.
    var days: ClosedRange<Int64>
    /// The days holding rows, in order, and the rows up to and including each (as the build
    /// counted them): what a window's days left to the rows hold, without a statement.
    var dayNumbers: [Int64] = []
    var rowsThrough: [Int] = []
    /// The cells of ``cellLevel`` holding rows (their keys' prefixes), in order, and the rows of
    /// all times up to and including each (as the build counted them): what a tile's key ranges
    /// hold at most, without a statement.
    var cellPrefixes: [Int64] = []
    var cellRowsThrough: [Int] = []

    /// Equal when of the same table and build (whose counts are then the same): a layout is
    /// hashed for each tile's statement text, and the counts' arrays are long.
    static func == (a: Self, b: Self) -> Bool {
        a.cells == b.cells && a.built == b.built && a.finest == b.finest && a.days == b.days
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(cells)
        hasher.combine(built)
    }

    /// The level of the cells whose rows the source keeps (``cellPrefixes``): at most 2^16 cells.
    static let cellLevel = 24

    /// The rows the summaries counted on the days of `ranges` (inclusive day numbers).
    ///
    /// - Complexity: O(ranges × log days).
    func rows(onDays ranges: [ClosedRange<Int64>]) -> Int {
        Self.rows(in: ranges, keys: dayNumbers, through: rowsThrough)
    }

    /// The rows of all times the key ranges `codes` (inclusive, as codes of `level`) hold,
    /// estimated from the counted cells of ``cellLevel`` as if each cell's rows were spread
    /// evenly over it, and the share of the area of the cells they touch that the ranges cover
    /// (the estimate is closer the nearer it is to 1; codes of a coarser level are whole cells).
    ///
    /// - Complexity: O(ranges × log cells).
    func estimatedRows(inCodes codes: [(UInt64, UInt64)], level: Int) -> (rows: Double, covered: Double) {
        guard level <= Self.cellLevel else {
            let up = UInt64(2 * (level - Self.cellLevel))
            let cells = codes.map { Int64($0.0 << up)...Int64(($0.1 << up) | ((1 << up) - 1)) }
            return (Double(Self.rows(in: cells, keys: cellPrefixes, through: cellRowsThrough)), 1)
        }
        let shift = UInt64(2 * (Self.cellLevel - level))
        let side = Double(sign: .plus, exponent: Int(shift), significand: 1)
        var (rows, area, touched) = (0.0, 0.0, 0.0)
        var last: UInt64?
        func cell(_ prefix: UInt64) -> Double {
            Double(Self.rows(in: [Int64(prefix)...Int64(prefix)], keys: cellPrefixes, through: cellRowsThrough))
        }
        for (low, high) in codes where low <= high {
            let (first, final) = (low >> shift, high >> shift)
            area += Double(high - low) + 1
            touched += Double(final - first) + 1 - (last == first ? 1 : 0)
            last = final
            if first == final {
                rows += cell(first) * (Double(high - low) + 1) / side
                continue
            }
            rows += cell(first) * Double(((first + 1) << shift) - low) / side
            rows += cell(final) * (Double(high - (final << shift)) + 1) / side
            if final - first > 1 {
                rows += Double(
                    Self.rows(
                        in: [Int64(first + 1)...Int64(final - 1)], keys: cellPrefixes, through: cellRowsThrough))
            }
        }
        return (rows, touched == 0 ? 1 : area / (touched * side))
    }

    /// The sum over `ranges` (inclusive; overlapping ranges count twice) of the counts of the
    /// sorted `keys`, whose running totals are `through`.
    private static func rows(in ranges: [ClosedRange<Int64>], keys: [Int64], through: [Int]) -> Int {
        func before(_ key: Int64) -> Int {
            // The rows of the keys before `key`.
            var (low, high) = (0, keys.count)
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? 0 : through[low - 1]
        }
        return ranges.reduce(0) { total, range in
            total + before(range.upperBound == .max ? .max : range.upperBound + 1) - before(range.lowerBound)
        }
    }

    /// Reads the state of the time summaries of `name` (`schema.name`) over `column`, whose table
    /// is `cells` (quoted); `nil` when there are none for that column.
    static func read(name: String, column: String, cells: String, on connection: PostgresConnection)
        throws(PostgresError) -> TimeSummaryState?
    {
        let present = try connection.execute(
            "SELECT to_regclass('heatmap_time_summaries') IS NOT NULL AND to_regclass($1) IS NOT NULL", [cells])
        guard present.text(0, 0) == "t" else { return nil }
        let found = try connection.execute(
            """
            SELECT s.built, array_to_string(s.finest, ','), s.first_day, s.last_day FROM heatmap_time_summaries s \
            WHERE s.table_name = $1 AND s.time_column = $2
            """, [name, column])
        guard found.rowCount == 1, let built = found.text(0, 0),
            let finest = found.text(0, 1)?.split(separator: ",").compactMap({ Int($0) }),
            finest.count == TimeSummaries.spans.count,
            let first = found.text(0, 2).flatMap({ Int64($0) }), let last = found.text(0, 3).flatMap({ Int64($0) }),
            first <= last
        else { return nil }
        var state = TimeSummaryState(cells: cells, built: built, finest: finest, days: first...last)
        let perDay = try connection.execute(
            "SELECT bucket, sum(rows) FROM \(cells) WHERE level = 24 AND span = 0 GROUP BY 1 ORDER BY 1")
        (state.dayNumbers, state.rowsThrough) = counts(perDay)
        // The coarsest span's buckets at the cells' level, summed over its buckets.
        let perCell = try connection.execute(
            "SELECT key, sum(rows) FROM \(cells) WHERE level = \(cellLevel) AND span = "
                + "\(TimeSummaries.spans[TimeSummaries.spans.count - 1]) GROUP BY 1 ORDER BY 1")
        (state.cellPrefixes, state.cellRowsThrough) = counts(perCell)
        return state
    }

    /// The keys of `result`'s rows (`key, rows`, in order) and the running totals of their rows.
    private static func counts(_ result: PostgresResult) -> ([Int64], [Int]) {
        var (keys, through, total) = ([Int64](), [Int](), 0)
        for row in 0..<result.rowCount {
            guard let key = result.text(row, 0).flatMap({ Int64($0) }),
                let rows = result.text(row, 1).flatMap({ Int($0) })
            else { continue }
            total += rows
            keys.append(key)
            through.append(total)
        }
        return (keys, through)
    }
}
