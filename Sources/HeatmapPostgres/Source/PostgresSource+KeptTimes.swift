import HeatmapCore

extension PostgresSource {
    /// The first and last second of the rows this source draws (a filtered source's: those its
    /// window and categories keep, their values bound parameters) of positive weight, as a
    /// file's points are counted, or `nil` without a time column or such rows:
    /// ``filterFacets()``'s time statement alone over them, where an animation's open ends close.
    ///
    /// - Throws: ``PostgresError`` when the database fails.
    package func keptTimeRange() throws(PostgresError) -> ClosedRange<Int64>? {
        var drawn = layout
        let positive = "\(layout.weight) > 0"
        drawn.filter = layout.filter.map { "(\($0)) AND \(positive)" } ?? positive
        let rows = PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: drawn)
        guard let statement = rows.facetStatements().time else { return nil }
        return try inSnapshot { (connection) throws(PostgresError) in
            Self.secondsRange(try connection.execute(statement))
        }
    }

    /// The range of the time statement's answer (its first and last time, in seconds, rounded
    /// down), or `nil` when it found no row.
    static func secondsRange(_ found: PostgresResult) -> ClosedRange<Int64>? {
        guard let low = found.text(0, 0).flatMap(Double.init), let high = found.text(0, 1).flatMap(Double.init),
            let first = Int64(exactly: low.rounded(.down)), let last = Int64(exactly: high.rounded(.down))
        else { return nil }
        return first...last
    }
}
