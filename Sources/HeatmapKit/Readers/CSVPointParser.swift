import Foundation

/// Reads CSV or TSV with a header line, RFC 4180 quoting (delimiters, quotes as `""` and
/// newlines inside quoted fields), streaming record by record.
///
/// Lines are physical lines (a quoted newline starts a new one); a record is named by the
/// line it starts on. Blank lines are ignored. Fields beyond the needed columns are not parsed.
struct CSVPointParser {
    let input: ByteInput
    let options: PointReadOptions
    let delimiter: UInt8
    /// The line the next record starts on.
    var line = 1
    var columns = CSVColumns(latitude: 0, longitude: 0, weight: nil, names: []) {
        didSet {
            neededFields = columns.needed
            headerFields = columns.names.count
        }
    }
    /// ``CSVColumns/needed`` and the header's field count, kept beside the columns: the row
    /// loop reads them for every row.
    var neededFields = 1
    var headerFields = 0
    var fields: [Range<Int>] = []
    /// Where the last ``split(_:limit:)`` stopped: the start of the fields it left unsplit,
    /// or the record's end.
    var restStart = 0
    /// The bytes the record scan and the field split have examined: at most a small multiple
    /// of the input's size whatever its quotes (the tests check it; see ``nextRecord()``).
    var bytesExamined = 0

    init(input: ByteInput, options: PointReadOptions, delimiter: UInt8) {
        self.input = input
        self.options = options
        self.delimiter = delimiter
    }

    mutating func read(into collector: inout PointCollector) throws(PointFileError) {
        try skipByteOrderMark()
        var sawHeader = false
        var sawRow = false
        while let record = try nextRecord() {
            let recordLine = line
            line += record.lines
            if record.range.isEmpty { continue }
            if !sawHeader {
                try readHeader(record.range, line: recordLine)
                sawHeader = true
                continue
            }
            sawRow = true
            try readRow(record.range, line: recordLine, into: &collector)
        }
        if !sawHeader {
            throw PointFileError(path: input.path, reason: "is empty: expected a header line such as lat,lng,weight")
        }
        if !sawRow { throw PointFileError(path: input.path, reason: "has a header but no rows of points") }
    }

    /// Skips a UTF-8 byte order mark at the start, so that the first field after it is seen
    /// at its start (a quoted first name, as spreadsheets write it, stays quoted).
    mutating func skipByteOrderMark() throws(PointFileError) {
        if input.end - input.start < 3 { _ = try input.refill(keepingFrom: input.start, line: 1, what: "the header") }
        let s = input.start
        let storage = input.storage
        if input.end - s >= 3 && storage[s] == 0xEF && storage[s + 1] == 0xBB && storage[s + 2] == 0xBF {
            input.start += 3
        }
    }

    /// The next record's bytes (without its line break) and the lines it spans; `nil` at the
    /// end. The last record needs no line break after it.
    ///
    /// One pass: every byte is examined once by the newline search, once by the quote search
    /// (or the scan inside quotes), whatever the quotes: the next newline is remembered
    /// until the scan passes it, not searched for again after every quote.
    mutating func nextRecord() throws(PointFileError) -> (range: Range<Int>, lines: Int)? {
        var s = input.start
        var j = s
        var inQuotes = false
        var newlines = 0
        var closedAt = -2
        // The first newline at or after `j` when `newline >= j`; none in `j..<searched`.
        var newline = -1
        var searched = s
        let storage = input.storage
        while true {
            if j < input.end && !inQuotes {
                if newline < j {
                    let from = max(j, searched)
                    if let found = memchr(storage + from, 10, input.end - from) {
                        newline = UnsafeMutablePointer(found.assumingMemoryBound(to: UInt8.self)) - storage
                        bytesExamined += newline - from + 1
                    } else {
                        bytesExamined += input.end - from
                        searched = input.end
                    }
                }
                let stop = newline >= j ? newline : input.end
                if let quote = memchr(storage + j, 34, stop - j) {
                    let q = UnsafeMutablePointer(quote.assumingMemoryBound(to: UInt8.self)) - storage
                    bytesExamined += q - j + 1
                    j = q + 1
                    // A quote opens quoting at a field's start, or right after a closing quote
                    // (`""`); elsewhere in an unquoted field it is just a character.
                    inQuotes = q == s || storage[q - 1] == delimiter || q == closedAt + 1
                    continue
                }
                bytesExamined += stop - j
                if newline >= j {
                    input.start = newline + 1
                    return try record(s, trimmed(s, newline), lines: newlines + 1)
                }
                j = input.end
            }
            let quoted = j
            while inQuotes && j < input.end {
                if storage[j] == 34 {
                    inQuotes = false
                    closedAt = j
                } else if storage[j] == 10 {
                    newlines += 1
                }
                j += 1
            }
            bytesExamined += j - quoted
            if j < input.end { continue }
            let shift = try input.refill(keepingFrom: s, line: line, what: "the record")
            s -= shift
            j -= shift
            closedAt -= shift
            newline -= shift
            searched -= shift
            if j < input.end { continue }
            // Nothing more came: the input is over, and the last record ends with it.
            if inQuotes {
                throw PointFileError(
                    path: input.path, line: line, reason: "a quoted field is never closed (a missing \")")
            }
            guard s < input.end else { return nil }
            input.start = input.end
            return try record(s, trimmed(s, input.end), lines: newlines + 1)
        }
    }

    /// A record's bytes and lines, within the record limit (``ByteInput/maximumKept``) wherever
    /// it lies in the buffer.
    private func record(_ start: Int, _ end: Int, lines: Int) throws(PointFileError) -> (
        range: Range<Int>, lines: Int
    ) {
        guard end - start <= ByteInput.maximumKept else {
            throw PointFileError(
                path: input.path, line: line,
                reason: "the record is longer than \(ByteInput.maximumKept) bytes; is this really a points file?")
        }
        return (start..<end, lines)
    }

    /// `end`, less a carriage return before it.
    private func trimmed(_ start: Int, _ end: Int) -> Int {
        end > start && input.storage[end - 1] == 13 ? end - 1 : end
    }
}
