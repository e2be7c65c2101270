/// A PNG's filtered rows and their ``RunLengthDeflate`` parse, made a band of rows at a time in
/// a few small buffers used again for each band: the filtered rows never exist whole, and
/// neither need the pixels. Only the tokens (a few per run of equal bytes) and their counts
/// are kept until the end, where the stream is written. The bytes are those of
/// ``PNGEncoder/encode(_:)`` with the same filter, bit for bit.
///
/// Each band's filtered bytes follow the bytes the parse has not taken yet; the parse stops
/// where a token could look past the band (a match reads up to 260 bytes ahead), and goes on
/// from there with the next band, so its tokens are those of the whole stream's parse. The
/// Adler-32 is taken a band at a time.
struct PNGBandStream {
    let width: Int
    let height: Int
    /// Bytes of a row of pixels: `width × 4`.
    let rowBytes: Int
    /// The rows of a band, as the caller hands them to ``append(rows:count:)``.
    let bandRows: Int
    /// The filter type, `nil` for adaptive.
    let fixedType: UInt8?
    /// `bandRows × rowBytes` bytes, zero: where the caller may draw a band (``pixels``).
    let pixels: UnsafeMutableRawPointer
    /// The last row of the band before (zeros before the first).
    private let previous: UnsafeMutablePointer<UInt8>
    private var candidate: UnsafeMutablePointer<UInt8>
    private var best: UnsafeMutablePointer<UInt8>
    /// Filtered bytes not yet parsed (and the 4 before the first), then the band's.
    private let filtered: UnsafeMutablePointer<UInt8>
    private let near: UnsafeMutablePointer<UInt64>
    private let far: UnsafeMutablePointer<UInt64>
    private let histogram: UnsafeMutablePointer<UInt32>
    private var tokens: UnsafeMutablePointer<UInt16>
    private var tokenCapacity: Int
    private var tokenCount = 0
    /// Bytes in `filtered`, and where the parse goes on.
    private var filled = 0
    private var position = 0
    private var checksum: UInt32 = 1
    private var rowsDone = 0
    /// The bytes past a token's start that its parse may read, with a margin.
    static let lookahead = 320
    /// The bytes `filtered` holds: the lookahead and 4 before it, then a band.
    private var filteredCapacity: Int { Self.lookahead + 8 + bandRows * (rowBytes + 1) }

    /// Calls `body` with a stream for a `width × height` image (both > 0) and deallocates it.
    static func with<R, E: Error>(
        width: Int, height: Int, bandRows: Int, filter: PNGEncoder.Filter,
        _ body: (inout PNGBandStream) throws(E) -> R
    ) throws(E) -> R {
        var stream = PNGBandStream(width: width, height: height, bandRows: bandRows, filter: filter)
        defer { stream.deallocate() }
        return try body(&stream)
    }

    /// The rows of a band for an image `width` pixels wide: about 32 KiB of pixels, and at
    /// least twice the lookahead of filtered bytes.
    static func bandRows(width: Int, height: Int) -> Int {
        let rowBytes = max(1, width * 4)
        return min(max(1, height), max(32_768 / rowBytes, (2 * lookahead) / (rowBytes + 1) + 1))
    }

    private init(width: Int, height: Int, bandRows: Int, filter: PNGEncoder.Filter) {
        self.width = width
        self.height = height
        rowBytes = width * 4
        self.bandRows = max(1, bandRows)
        fixedType = PNGRowFilter.fixedType(of: filter)
        let bandBytes = self.bandRows * rowBytes
        pixels = UnsafeMutableRawPointer.allocate(byteCount: bandBytes, alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: bandBytes)
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * rowBytes)
        rows.initialize(repeating: 0, count: 3 * rowBytes)
        previous = rows
        candidate = rows + rowBytes
        best = rows + 2 * rowBytes
        let capacity = Self.lookahead + 8 + self.bandRows * (rowBytes + 1)
        filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let words = RunTokenizer.maskWordCount(byteCount: capacity)
        near = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * words)
        far = near + words
        histogram = UnsafeMutablePointer<UInt32>.allocate(capacity: RunTokenizer.tokenCount)
        histogram.initialize(repeating: 0, count: RunTokenizer.tokenCount)
        tokenCapacity = min(height * (rowBytes + 1), max(capacity, 1 << 16))
        tokens = UnsafeMutablePointer<UInt16>.allocate(capacity: tokenCapacity)
    }

    private func deallocate() {
        pixels.deallocate()
        previous.deallocate()
        filtered.deallocate()
        near.deallocate()
        histogram.deallocate()
        tokens.deallocate()
    }

    /// Filters and parses a whole image, `height × rowBytes` bytes at `pixels`, a band at a time.
    mutating func append(image pixels: UnsafeRawPointer) {
        var first = 0
        while first < height {
            let rows = min(bandRows, height - first)
            append(rows: pixels + first * rowBytes, count: rows)
            first += rows
        }
    }

    /// Filters and parses the next `count` rows (`count × rowBytes` bytes at `rows`): a whole
    /// band, but for the last.
    mutating func append(rows: UnsafeRawPointer, count: Int) {
        precondition(count > 0 && count <= bandRows && rowsDone + count <= height, "a band of rows at a time")
        precondition(count == bandRows || rowsDone + count == height, "only the last band may be shorter")
        let source = rows.assumingMemoryBound(to: UInt8.self)
        let start = filled
        for r in 0..<count {
            let row = source + r * rowBytes
            PNGRowFilter.filterRow(
                row, previous: r == 0 ? UnsafePointer(previous) : row - rowBytes, into: filtered + filled,
                count: rowBytes, fixedType: fixedType, candidate: &candidate, best: &best)
            filled += rowBytes + 1
        }
        checksum = Adler32.checksum(
            UnsafeBufferPointer(start: filtered + start, count: filled - start), continuing: checksum)
        previous.update(from: source + (count - 1) * rowBytes, count: rowBytes)
        rowsDone += count
        let last = rowsDone == height
        let limit = last ? filled : filled - Self.lookahead
        if limit > position {
            // Each token takes at least a byte.
            reserveTokens(limit - position)
            RunTokenizer.equalityMasks(filtered, count: filled, near: near, far: far)
            let parsed = RunTokenizer.tokenize(
                filtered, from: position, until: limit, equalAt1: near, equalAt4: far, tokens: tokens + tokenCount,
                histogram: histogram)
            tokenCount += parsed.tokens
            position = parsed.end
        }
        if !last && position > 4 {
            // Keep the bytes not parsed, and the 4 before them that the masks compare with.
            let kept = position - 4
            filtered.update(from: filtered + kept, count: filled - kept)
            filled -= kept
            position = 4
        }
        precondition(filled + bandRows * (rowBytes + 1) <= filteredCapacity || last, "the band's bytes must fit")
    }

    /// Appends the band drawn at ``pixels`` (`count` rows) and clears it for the next.
    mutating func appendPixels(count: Int) {
        append(rows: UnsafeRawPointer(pixels), count: count)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: count * rowBytes)
    }

    /// Makes room for `more` tokens after the ones parsed.
    private mutating func reserveTokens(_ more: Int) {
        guard tokenCount + more > tokenCapacity else { return }
        let capacity = max(tokenCount + more, 2 * tokenCapacity)
        let grown = UnsafeMutablePointer<UInt16>.allocate(capacity: capacity)
        grown.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = grown
        tokenCapacity = capacity
    }

    /// The zlib stream of every row appended, after `prefix` and before `suffix` bytes.
    ///
    /// - Precondition: every row was appended; `suffix >= 8`.
    func stream(prefix: Int, suffix: Int) -> [UInt8] {
        precondition(rowsDone == height, "every row is appended before the stream is written")
        return RunLengthDeflate.stream(
            tokens: tokens, count: tokenCount, histogram: histogram, checksum: checksum, prefix: prefix,
            suffix: suffix)
    }
}
