extension CellSummary {
    /// Reports each occupied pixel of `query` with its weight to `sink`, where the query's
    /// pixels are this summary's cells (`query.space.pixelLevel == level`): the same pixels
    /// and the same float weights as a walk over the keys, read one entry a pixel.
    ///
    /// The walk is the implicit quadtree over the entries' codes: it starts at the smallest
    /// cell that holds the query, reads cells inside the query entry by entry and splits the
    /// others with binary searches.
    ///
    /// - Complexity: O(occupied pixels in the query + pixels along its edges × log n).
    func walk<Sink: CellSink>(_ query: PixelQuery, into sink: inout Sink) {
        guard !entries.isEmpty, query.x0 < query.x1, query.y0 < query.y1 else { return }
        entries.withUnsafeBufferPointer { buffer in
            SummaryWalker(entries: buffer, query: query).start(into: &sink)
        }
    }
}

/// The recursive walk of a summary, in pixels (which are the summary's cells).
private struct SummaryWalker {
    let entries: UnsafeBufferPointer<UInt64>
    let query: PixelQuery

    /// Starts at the smallest aligned square of pixels that holds the whole query.
    func start<Sink: CellSink>(into sink: inout Sink) {
        let x0 = UInt64(query.x0)
        let y0 = UInt64(query.y0)
        let differing = (x0 ^ UInt64(query.x1 - 1)) | (y0 ^ UInt64(query.y1 - 1))
        let level = 64 - differing.leadingZeroBitCount
        let mask = ~((UInt64(1) << UInt64(level)) - 1)
        let x = x0 & mask
        let y = y0 & mask
        let base = Morton.key(x: UInt32(truncatingIfNeeded: x), y: UInt32(truncatingIfNeeded: y))
        let lo = lowerBound(code: base, 0, entries.count)
        let end = base + (UInt64(1) << UInt64(2 * level))
        let hi = end >> 32 == 0 ? lowerBound(code: end, lo, entries.count) : entries.count
        descend(x: x, y: y, level: level, lo: lo, hi: hi, into: &sink)
    }

    func descend<Sink: CellSink>(x: UInt64, y: UInt64, level: Int, lo: Int, hi: Int, into sink: inout Sink) {
        if lo == hi { return }
        let last = Int((UInt64(1) << UInt64(level)) - 1)
        let px = Int(x)
        let py = Int(y)
        if px + last < query.x0 || px >= query.x1 || py + last < query.y0 || py >= query.y1 { return }
        let inside = px >= query.x0 && px + last < query.x1 && py >= query.y0 && py + last < query.y1
        if inside || hi - lo <= PointIndex.leafSize {
            report(lo: lo, hi: hi, checkBounds: !inside, into: &sink)
            return
        }
        let child = level - 1
        let quarter = UInt64(1) << UInt64(2 * child)
        let base = Morton.key(x: UInt32(truncatingIfNeeded: x), y: UInt32(truncatingIfNeeded: y))
        let b1 = lowerBound(code: base + quarter, lo, hi)
        let b2 = lowerBound(code: base + 2 * quarter, b1, hi)
        let b3 = lowerBound(code: base + 3 * quarter, b2, hi)
        let half = UInt64(1) << UInt64(child)
        descend(x: x, y: y, level: child, lo: lo, hi: b1, into: &sink)
        descend(x: x + half, y: y, level: child, lo: b1, hi: b2, into: &sink)
        descend(x: x, y: y + half, level: child, lo: b2, hi: b3, into: &sink)
        descend(x: x + half, y: y + half, level: child, lo: b3, hi: hi, into: &sink)
    }

    /// Reports the entries `lo..<hi`, those outside the query left out when `checkBounds`.
    @inline(__always)
    func report<Sink: CellSink>(lo: Int, hi: Int, checkBounds: Bool, into sink: inout Sink) {
        for i in lo..<hi {
            let entry = entries[i]
            let code = entry >> 32
            let px = Int(Morton.x(code))
            let py = Int(Morton.y(code))
            if checkBounds && (px < query.x0 || px >= query.x1 || py < query.y0 || py >= query.y1) { continue }
            let weight = Float(bitPattern: UInt32(truncatingIfNeeded: entry))
            sink.add(column: px, row: py, weight: Double(weight))
        }
    }

    /// The first index in `lo..<hi` whose entry's code is at least `code`.
    @inline(__always)
    func lowerBound(code: UInt64, _ lo: Int, _ hi: Int) -> Int {
        entries.firstIndex(atLeast: code << 32, in: lo..<hi)
    }
}
