extension PointFileReader {
    /// Reads the file at `path` as ``read(path:options:)`` does (same formats, options and
    /// errors), keeping the points as read, with their exact coordinates and in file order,
    /// instead of indexing them (for loading them elsewhere, a database say): 24 bytes a point.
    ///
    /// - Throws: ``PointFileError`` naming the file, line (and column) and what was expected.
    package static func readPoints(path: String, options: PointReadOptions = .init()) throws(PointFileError)
        -> (points: [WeightedLatLng], report: PointFileReport)
    {
        let input = try ByteInput(path: path)
        var collector = PointCollector(path: path, skipInvalid: options.skipInvalid)
        collector.points = []
        let file = try read(input: input, options: options, collector: &collector)
        return (collector.points ?? [], file.report)
    }
}
