import HeatmapCore

/// Validates points as the parsers find them, adds them to the index builder and the
/// report, and skips or throws on invalid ones.
///
/// Rules: latitude a number in -90...90 (beyond ±85.05112878 kept, clamped when drawn,
/// counted); longitude any finite number (it wraps); weight a finite number ≥ 0 and at most
/// Float's largest, 0 or at least ``PointIndex/minimumPositiveWeight`` (0 is kept and
/// counted), all of them summing to at most
/// ``PointIndex/maximumTotalWeight``. A value's text is quoted in messages.
struct PointCollector {
    let path: String
    let skipInvalid: Bool
    var builder = PointIndex.Builder()
    var statistics = ReportAccumulator()
    var skipped = 0
    var skippedLines: [Int] = []
    /// The points as read, kept only when not `nil` (for ``JSONPointReader``), and then
    /// in place of the index: the builder stays empty.
    var points: [WeightedLatLng]?
    /// The points with their values, in place of ``builder`` when a value column is read.
    var values: ValueIndex.Builder?
    /// The value of the point (or the feature's points) ``add(latitude:longitude:weight:)``
    /// adds next, when values are read (see PointCollector+Values.swift).
    var pendingValue = 0.0
    /// Where the kept points go once `chunkSize` of them are read (a streaming read): they
    /// are then handed over and dropped, so that memory stays bounded.
    var chunkSink: PointChunkSink?
    /// The CSV rows read with more fields than the header, the first one's line and the
    /// header's field count (see ``PointFileReport/longRowSummary``).
    var longRows = (count: 0, firstLine: 0, headerFields: 0)
    /// The points' times and categories, when read (see PointCollector+Filters.swift).
    var filterColumns: FilterColumnsState?
    /// The times and categories of the points of the chunk being gathered, in a streaming read
    /// of such columns (in place of ``filterColumns``' index).
    var chunkFields: PointChunkFields?

    init(path: String, skipInvalid: Bool) {
        self.path = path
        self.skipInvalid = skipInvalid
    }

    /// Why a latitude is unusable, or `nil`.
    static func latitudeProblem(_ value: Double, text: @autoclosure () -> String) -> String? {
        (-90...90).contains(value) ? nil : "latitude \"\(text())\" is out of range -90...90"
    }

    /// Why a longitude is unusable, or `nil`.
    static func longitudeProblem(_ value: Double, text: @autoclosure () -> String) -> String? {
        value.isFinite ? nil : "longitude \"\(text())\" is not a finite number"
    }

    /// Why a weight is unusable, or `nil`.
    static func weightProblem(_ value: Double, text: @autoclosure () -> String) -> String? {
        if value.isNaN || value.isInfinite { return "weight \"\(text())\" is not a finite number" }
        if value < 0 { return "weight \"\(text())\" is negative; weights are finite numbers ≥ 0" }
        if value > Double(Float.greatestFiniteMagnitude) {
            return "weight \"\(text())\" is too large (at most \(Double(Float.greatestFiniteMagnitude)))"
        }
        if value > 0, value < PointIndex.minimumPositiveWeight {
            return PointIndex.smallWeightReason("weight \"\(text())\"")
        }
        return nil
    }

    /// Why a weight, valid by itself, cannot join the points read so far: their weights, as
    /// the index keeps them, would sum above ``PointIndex/maximumTotalWeight``; or `nil`.
    func totalWeightProblem(_ value: Double, text: @autoclosure () -> String) -> String? {
        storedWeightSum + PointIndex.storedWeight(value) <= PointIndex.maximumTotalWeight
            ? nil : PointIndex.totalWeightReason("weight \"\(text())\"")
    }

    /// The sum of the weights added, as the index keeps them.
    private(set) var storedWeightSum = 0.0

    /// Adds a point already checked with the `…Problem` functions, with the time and
    /// categories read for it (a column with too many distinct values throws, naming `line`);
    /// a streaming read hands a full chunk on, and throws what its sink throws.
    mutating func add(latitude: Double, longitude: Double, weight: Double, line: Int? = nil) throws(PointFileError) {
        if filterColumns != nil, let problem = addFilterFields(latitude: latitude, longitude: longitude, weight: weight)
        {
            throw PointFileError(path: path, line: line, reason: problem)
        }
        storedWeightSum += PointIndex.storedWeight(weight)
        if values != nil {
            // Checked by the reader as the builder checks them, so it cannot throw here.
            do {
                try values?.append(latitude: latitude, longitude: longitude, intensity: weight, value: pendingValue)
            } catch {
                return
            }
        } else if points != nil {
            points?.append(
                WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: weight))
        } else {
            // The checks above are the builder's, so it cannot throw here.
            do {
                try builder.append(latitude: latitude, longitude: longitude, intensity: weight)
            } catch {
                return
            }
        }
        statistics.add(latitude: latitude, longitude: longitude, weight: weight)
        if let chunkSink, (points?.count ?? 0) >= chunkSink.size { try flushChunk() }
    }

    /// Hands the kept points to the chunk sink, if any, and drops them.
    mutating func flushChunk() throws(PointFileError) {
        guard let chunkSink, var chunk = points, !chunk.isEmpty else { return }
        points = nil
        try chunkSink.receive(chunk, chunkFields)
        chunk.removeAll(keepingCapacity: true)
        points = chunk
        chunkFields?.removeAll()
    }

    /// Skips an invalid row under `skipInvalid`, else throws its error.
    mutating func reject(line: Int, column: Int? = nil, _ reason: String) throws(PointFileError) {
        guard skipInvalid else { throw PointFileError(path: path, line: line, column: column, reason: reason) }
        skipped += 1
        if skippedLines.count < PointFileReport.skippedLinesKept { skippedLines.append(line) }
    }

    /// The index (empty when the points are kept instead) and report; an error if no point
    /// was read.
    mutating func finish(format: PointFormat) throws(PointFileError) -> PointFile {
        guard statistics.count > 0 else {
            if skipped > 0 {
                let lines = skippedLines.map(String.init).joined(separator: ", ")
                throw PointFileError(
                    path: path, reason: "holds no valid points: all \(skipped) rows were invalid (lines \(lines)…)")
            }
            throw PointFileError(path: path, reason: "holds no points")
        }
        var report = statistics.report(path: path, format: format, skipped: skipped, skippedLines: skippedLines)
        if longRows.count > 0 {
            report.longRowCount = longRows.count
            report.firstLongRowLine = longRows.firstLine
            report.headerFieldCount = longRows.headerFields
        }
        if let state = filterColumns, chunkFields != nil {
            // A streamed read's times went with its chunks: only their range is reported.
            report.timeRange = state.timeColumn == nil ? nil : state.range
        }
        if var state = filterColumns, chunkFields == nil {
            report.timeRange = state.timeColumn == nil ? nil : state.range
            report.categories = state.builder.dictionaries
            filterColumns = nil
            var file = PointFile(index: builder.build(), report: report)
            file.filters = state.builder.build()
            return file
        }
        if var values {
            do {
                let built = try values.build()
                var file = PointFile(index: built.density, report: report)
                file.values = built
                return file
            } catch {
                throw PointFileError(path: path, reason: error.description)
            }
        }
        // build() takes the builder's arrays, so that they are sorted without a copy.
        return PointFile(index: builder.build(), report: report)
    }
}
