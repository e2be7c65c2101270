import HeatmapCore

extension PointFileReader {
    /// Reads the file at `path` as ``read(path:options:)`` does (same formats, options and
    /// errors), keeping the points as read, with their exact coordinates and in file order,
    /// instead of indexing them (for loading them elsewhere, a database say): 24 bytes a point.
    ///
    /// - Throws: ``PointFileError`` naming the file, line (and column) and what was expected.
    package static func readPoints(path: String, options: PointReadOptions = .init()) throws(PointFileError)
        -> (points: [WeightedLatLng], report: PointFileReport)
    {
        let read = try readFilteredPoints(path: path, options: options)
        return (read.points, read.report)
    }

    /// ``readPoints(path:options:)``, with the points' times and categories as an index of
    /// their own when the options name time or category columns (with the same checks and
    /// errors as ``read(path:options:)``); `nil` when they name none.
    ///
    /// - Throws: ``PointFileError`` naming the file, line (and column) and what was expected.
    package static func readFilteredPoints(path: String, options: PointReadOptions) throws(PointFileError)
        -> (points: [WeightedLatLng], filters: FilterIndex?, report: PointFileReport)
    {
        let input = try ByteInput(path: path)
        var collector = PointCollector(path: path, skipInvalid: options.skipInvalid)
        collector.points = []
        if options.readsFilterColumns { collector.filterColumns = FilterColumnsState(options: options, capacity: 0) }
        let file = try read(input: input, options: options, collector: &collector)
        return (collector.points ?? [], file.filters, file.report)
    }
}
