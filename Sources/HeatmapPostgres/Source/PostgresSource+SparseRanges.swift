extension PostgresSource {
    /// A tile's key ranges joined where the summaries' finest cells show few rows between them
    /// (see ``KeyRanges/merging(_:rows:)`` and ``CellOccupancy``): a sparse tile's 16 ranges
    /// are then one or a few B-tree descents. `ranges` as they are for a table without
    /// summaries, or when the cells around cannot be read.
    func sparseRanges(_ ranges: [ClosedRange<Int64>], on connection: PostgresConnection) throws(PostgresError)
        -> [ClosedRange<Int64>]
    {
        guard ranges.count > 1, let cells = layout.summaries else { return ranges }
        let statements = hooks.tileStatements
        let level = try statements.finestLevel(of: layout.qualifiedName, on: connection)
        guard CellSummaries.levels.contains(level) else { return ranges }
        let shift = UInt64(2 * level)
        return KeyRanges.merging(ranges) { low, high in
            statements.occupancy.rows(prefixes: low >> shift, high >> shift, level: level, cells: cells, on: connection)
        }
    }
}
