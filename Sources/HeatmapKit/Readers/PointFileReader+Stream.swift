/// Where a streaming read hands its points: `receive` gets them `size` at a time, in file order.
struct PointChunkSink {
    let size: Int
    let receive: ([WeightedLatLng]) throws(PointFileError) -> Void
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
        let input = try ByteInput(path: path)
        var collector = PointCollector(path: path, skipInvalid: options.skipInvalid)
        collector.points = []
        collector.points?.reserveCapacity(max(1, chunkSize))
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
