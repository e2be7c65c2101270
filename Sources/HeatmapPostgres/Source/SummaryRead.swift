import HeatmapCore

/// Summed cells a statement reads in place of the rows beneath them, at one level: the table's
/// cell summaries (``CellSummaries``), a time window's whole buckets in the time summaries
/// (``TimeSummaries``), or a sharded table's summaries on its shards (``ShardCells``). The
/// source chooses one per level (``PostgresSource/summaryRead(level:)``), and one builder
/// makes the pixel statement and M(z)'s cell statement over any of them
/// (PostgresSource+SummaryStatement).
struct SummaryRead: Sendable {
    /// When the summaries hold the table's current rows.
    enum Freshness: Sendable, Hashable {
        /// Always, as far as the statement can tell: a sharded table's (each shard keeps its own).
        case always
        /// While `heatmap_summaries` records the table's change count and a finest level at
        /// most the one read.
        case cells
        /// While `heatmap_time_summaries` records the table's change count and this build tag.
        case time(built: String)
    }

    /// The quoted table of cells: `level, key, x, y, weight` (the time summaries' also
    /// `span, bucket`).
    var table: String
    /// When they hold the rows; under the negation the rows answer, in the same statement.
    var freshness: Freshness
    /// The time summaries' buckets a window reads whole, or `nil`.
    var buckets: TimeBuckets?
    /// While the summaries hold the rows, the rows they leave out, or `nil` for none.
    var remainder: Remainder?

    /// The rows a time window's buckets leave out: those meeting `condition` (the window's
    /// partial days and days no usable span covers) and `filter` (the rest of the source's
    /// filter), read through the time's B-tree or the key's, whichever the counts say costs
    /// less (``route(codes:level:)``).
    struct Remainder: Sendable {
        var filter: String?
        var condition: String
        var use: TimeSummaryUse
        var split: TimeBuckets

        /// The choice's condition and values (see ``TimeSummaryUse/cheaperByTime(_:codes:level:first:)``).
        func cheaperByTime(codes: [(UInt64, UInt64)], level: Int, first: Int) -> (condition: String, values: [String?])
        {
            use.cheaperByTime(split, codes: codes, level: level, first: first)
        }

        /// How to read these rows inside the key ranges `codes` of `level` (see
        /// ``TimeSummaryUse/route(_:codes:level:)``).
        func route(codes: [(UInt64, UInt64)], level: Int) -> TimeSummaryUse.RowsRoute {
            use.route(split, codes: codes, level: level)
        }
    }

    /// Whether the pixel statement names each key range as parameters of its own, `OR`ed in
    /// the `WHERE` (which `postgres_fdw` ships to each shard), rather than as arrays joined
    /// laterally (one B-tree scan a range, one text for every tile).
    var inlineRanges: Bool { freshness == .always }

    /// The condition that the summaries hold the rows of the table `name` (`schema.name`) at
    /// `level`, numbering its parameters from `first`, and their values; `nil` for
    /// ``Freshness/always``.
    func fresh(name: String, level: Int, first: Int) -> (condition: String, values: [String?])? {
        switch freshness {
        case .always:
            return nil
        case .cells:
            return ("(\(CellSummaries.freshCondition(parameter: first, level: first + 1)))", [name, "\(level)"])
        case .time(let built):
            return ("(\(TimeSummaries.freshCondition(name: first, built: first + 1)))", [name, built])
        }
    }

    /// The condition on a summary row that it is of one of the buckets, joined as
    /// `t(span, bucket)` (see ``bucketItem(first:)``); `nil` without buckets.
    var bucketCondition: String? {
        buckets == nil ? nil : "span = t.span AND bucket = t.bucket"
    }

    /// The `FROM` item of the buckets, whose arrays are parameters `first` and `first + 1`
    /// (see ``bucketArrays``); `nil` without buckets.
    func bucketItem(first: Int) -> String? {
        buckets == nil ? nil : "unnest($\(first)::int2[], $\(first + 1)::int8[]) AS t(span, bucket)"
    }

    /// The two arrays of the buckets' spans and numbers, as parameters; none without buckets.
    var bucketArrays: [String?] {
        guard let buckets else { return [] }
        return [
            "{" + buckets.buckets.map { "\($0.span)" }.joined(separator: ",") + "}",
            "{" + buckets.buckets.map { "\($0.bucket)" }.joined(separator: ",") + "}",
        ]
    }
}

extension PostgresSource {
    /// The summaries a statement for cells of `level` reads, or `nil` when the rows answer
    /// alone: a sharded table's from their finest level; a time window's whole buckets where
    /// its time summaries cover enough of it (``TimeSummaryUse/buckets(level:)``); the cell
    /// summaries of an unfiltered table (the statement checks their finest level).
    func summaryRead(level: Int) -> SummaryRead? {
        guard CellSummaries.levels.contains(level) else { return nil }
        if let shards = layout.shardCells {
            return level >= shards.finest ? SummaryRead(table: shards.table, freshness: .always) : nil
        }
        if let use = layout.timeSummaries {
            guard let split = use.buckets(level: level) else { return nil }
            // The rows left by the route the counts choose where a window's buckets leave few days
            // or at most a quarter of its rows, or where no bucket is whole and the window holds at
            // most 1/64 of the rows; else the plain rows statement (a tile whose route is by key
            // takes it too: the same rows by key, without the summaries).
            let left = use.state.rows(onDays: split.rowDays(inside: use.state.days))
            if split.buckets.isEmpty {
                if 64 * left > use.state.rowsThrough.last ?? 0 { return nil }
            } else if !split.fewDaysLeft, 4 * left > use.windowRows {
                return nil
            }
            return SummaryRead(
                table: use.state.cells, freshness: .time(built: use.state.built), buckets: split,
                remainder: use.rowsCondition(split).map {
                    SummaryRead.Remainder(filter: use.rest, condition: $0, use: use, split: split)
                })
        }
        guard let cells = layout.summaries, layout.filter == nil else { return nil }
        return SummaryRead(table: cells, freshness: .cells)
    }

    /// Whether a tile at `space` reads the time summaries.
    func readsTimeSummaries(at space: PixelSpace) -> Bool {
        space.pixelLevel.flatMap { summaryRead(level: $0) }?.buckets != nil
    }
}
