/// Where a streaming read hands its points: `receive` gets them `size` at a time, in file order,
/// with their times and categories when those columns are read.
struct PointChunkSink {
    let size: Int
    let receive: ([WeightedLatLng], PointChunkFields?) throws(PointFileError) -> Void
}

/// The times and categories of a streamed chunk's points, in the points' order, when the read
/// names a time or category column (``PointReadOptions/readsFilterColumns``).
package struct PointChunkFields: Sendable, Hashable {
    /// Each point's time in Unix seconds; empty without a time column.
    package var times: [Int64] = []
    /// Each category column's value of each point: `categories[column][point]`.
    package var categories: [[String]]

    /// Empty fields for `categoryColumns` columns.
    package init(categoryColumns: Int) {
        categories = Array(repeating: [], count: categoryColumns)
    }

    /// Drops the values, keeping the capacity.
    mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        for c in categories.indices { categories[c].removeAll(keepingCapacity: true) }
    }
}

extension PointFileReader {
    /// Reads the file at `path` as ``readPoints(path:options:)`` does (same formats, options
    /// and errors, exact coordinates in file order), handing the points to `receive` in chunks
    /// of at most `chunkSize` as they are read, so that memory stays bounded whatever the
    /// file's size: the last chunk comes before the function returns the report. An error
    /// `receive` throws stops the read and is rethrown; an invalid row stops it (unless
    /// skipped) after the chunks before it were handed over, so a caller that must load all
    /// or nothing keeps what it received apart until the read returns.
    ///
    /// - Throws: ``PointFileError`` naming the file, line (and column) and what was expected,
    ///   or what `receive` threw.
    package static func readPoints(
        path: String, options: PointReadOptions = .init(), chunkSize: Int = 1 << 15,
        receive: ([WeightedLatLng]) throws(PointFileError) -> Void
    ) throws(PointFileError) -> PointFileReport {
        try readPoints(path: path, options: options, chunkSize: chunkSize) {
            (points, _) throws(PointFileError) in try receive(points)
        }
    }

    /// Reads as ``readPoints(path:options:chunkSize:receive:)`` does, handing each chunk's
    /// points with their times and categories (checked as a file's are: a bad time names the
    /// file, line and column) when `options` name those columns, else `nil`.
    ///
    /// - Throws: ``PointFileError`` as ``readPoints(path:options:chunkSize:receive:)``.
    package static func readPoints(
        path: String, options: PointReadOptions = .init(), chunkSize: Int = 1 << 15,
        receive: ([WeightedLatLng], PointChunkFields?) throws(PointFileError) -> Void
    ) throws(PointFileError) -> PointFileReport {
        let input = try ByteInput(path: path)
        var collector = PointCollector(path: path, skipInvalid: options.skipInvalid)
        collector.points = []
        collector.points?.reserveCapacity(max(1, chunkSize))
        if options.readsFilterColumns {
            // The readers hand times and categories to this state; the chunk keeps them.
            collector.filterColumns = FilterColumnsState(options: options, capacity: 0)
            collector.chunkFields = PointChunkFields(categoryColumns: options.categoryColumns.count)
        }
        // A non-escaping closure may not be stored: the sink borrows it for the read's duration.
        return try withoutActuallyEscaping(receive) { (receive) throws(PointFileError) in
            collector.chunkSink = PointChunkSink(size: max(1, chunkSize), receive: receive)
            defer { collector.chunkSink = nil }
            let file = try read(input: input, options: options, collector: &collector)
            try collector.flushChunk()
            return file.report
        }
    }
}
