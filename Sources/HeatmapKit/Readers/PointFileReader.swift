import HeatmapCore

/// Points read from a file: the index to draw them and a report of what was read.
public struct PointFile: Sendable {
    /// The points, indexed for drawing.
    package var index: PointIndex
    /// Counts, skipped rows, bounds and weights.
    public var report: PointFileReport
    /// The points with their values, when a value column was read
    /// (``PointReadOptions/valueColumn``); its density is `index`.
    public var values: ValueIndex? = nil

    /// Creates a points file's result.
    package init(index: PointIndex, report: PointFileReport) {
        self.index = index
        self.report = report
    }
}

/// Reads points from JSON, CSV, TSV, GeoJSON or NDJSON files, plain or gzip-compressed,
/// streaming into a `PointIndex` (about 12 bytes a point while reading, 20 to 26 in the index).
///
/// ```swift
/// let file = try PointFileReader.read(path: "cities.csv", options: .init(weightColumn: "population"))
/// let layer = HeatmapTileLayer(index: file.index)
/// ```
public enum PointFileReader {
    /// Reads the file at `path`; `-` is standard input. Compressed data (gzip) is inflated
    /// whatever the name; a final `.gz` is looked through to find the format.
    ///
    /// - Throws: ``PointFileError`` naming the file, line (and column) and what was expected,
    ///   for a syntax error, an invalid row (unless skipped), an empty file or no valid points.
    public static func read(path: String, options: PointReadOptions = .init()) throws(PointFileError) -> PointFile {
        let input = try ByteInput(path: path)
        var collector = PointCollector(path: path, skipInvalid: options.skipInvalid)
        return try read(input: input, options: options, collector: &collector)
    }

    /// Reads into a collector (which may keep the points as read, for ``JSONPointReader``).
    static func read(input: ByteInput, options: PointReadOptions, collector: inout PointCollector)
        throws(PointFileError) -> PointFile
    {
        let path = input.path
        if collector.points != nil, collector.chunkSink == nil {
            collector.points?.reserveCapacity(try input.estimatedLineCount())
        } else if options.valueColumn != nil {
            collector.values = ValueIndex.Builder(capacity: try input.estimatedLineCount())
        } else if collector.points == nil, collector.builder.count == 0 {
            collector.builder = PointIndex.Builder(capacity: try input.estimatedLineCount())
        }
        var format = options.format ?? .csv
        if options.format == nil { format = try detect(input: input, path: path) }
        if format.isJSON {
            var parser = JSONPointParser(input: input, options: options)
            try parser.read(into: &collector)
        } else {
            var parser = CSVPointParser(input: input, options: options, delimiter: format == .tsv ? 9 : 44)
            try parser.read(into: &collector)
        }
        return try collector.finish(format: format)
    }

    /// The format from the name, else from the first bytes: `[` or `{` is JSON (NDJSON if the
    /// first line ends in `}` and another line follows), a header with a tab is TSV, else CSV.
    static func detect(input: ByteInput, path: String) throws(PointFileError) -> PointFormat {
        if let named = PointFormat(fileName: path) { return named }
        if input.end == 0 { _ = try input.refill(keepingFrom: 0, line: 1, what: "the first line") }
        let bytes = UnsafeBufferPointer(start: input.storage, count: input.end)
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { i += 1 }
        guard i < bytes.count else { return .csv }
        if bytes[i] == UInt8(ascii: "[") { return .json }
        let lineEnd = bytes[i...].firstIndex(of: 10) ?? bytes.count
        if bytes[i] == UInt8(ascii: "{") {
            // NDJSON if the first line closes its object and more follows, else one GeoJSON object.
            let last = bytes[i..<lineEnd].lastIndex { ![9, 13, 32].contains($0) }
            let more = bytes[lineEnd...].contains { ![9, 10, 13, 32].contains($0) }
            return last.map { bytes[$0] == UInt8(ascii: "}") } == true && more ? .ndjson : .geojson
        }
        return bytes[i..<lineEnd].contains(9) ? .tsv : .csv
    }
}
