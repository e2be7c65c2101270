import HeatmapCore

/// A time window read through the time summaries (see ``TimeSummaries``): their state as the
/// source read it, the window, the time column, and the source's filter without the window.
struct TimeSummaryUse: Sendable, Hashable {
    var state: TimeSummaryState
    var start: Int64?
    var end: Int64?
    var time: FilterColumn
    /// The condition on rows besides the window (the user's `--where`), or `nil`.
    var rest: String?

    /// The window's split at `level`, over the spans whose finest level is at most it; `nil`
    /// when the rows answer alone.
    func buckets(level: Int) -> TimeBuckets? {
        let usable = zip(TimeSummaries.spans, state.finest).filter { $0.1 <= level }.map(\.0)
        return TimeBuckets(start: start, end: end, days: state.days, usable: usable)
    }

    /// The condition that the row's time lies in one of `split`'s intervals, in the terms of
    /// `T_time`, a B-tree on the time read as UTC (`"t" AT TIME ZONE 'UTC'`, immutable): only
    /// these statements can use it, so it never takes the place of the key's B-tree in a
    /// tile's other statements (a day's window planned through it read each of its rows' heap
    /// pages); `nil` for none.
    func rowsCondition(_ split: TimeBuckets) -> String? {
        let utc = "(\(time.quoted) AT TIME ZONE 'UTC')"
        func bound(_ second: Int64) -> String {
            "(to_timestamp(\(PostgresConnection.boundValue("\(second)"))::float8) AT TIME ZONE 'UTC')"
        }
        let parts = split.rows.compactMap { interval -> String? in
            let ends =
                (interval.start.map { ["\(utc) >= \(bound($0))"] } ?? [])
                + (interval.end.map { ["\(utc) < \(bound($0))"] } ?? [])
            return ends.isEmpty ? nil : "(" + ends.joined(separator: " AND ") + ")"
        }
        return parts.isEmpty ? nil : "(" + parts.joined(separator: " OR ") + ")"
    }
}
