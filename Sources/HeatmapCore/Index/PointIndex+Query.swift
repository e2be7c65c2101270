/// Receives what a walk of the index finds in a rectangle of pixels.
protocol CellSink {
    /// Whether a cell wholly inside the query may be reported as one, whatever pixels it
    /// spans (a weight sum), rather than only when it lies in a single pixel (a gather).
    static var takesWholeCells: Bool { get }
    /// Adds `weight` (> 0) found in the pixel at world `column` and `row`; for a whole cell
    /// the position is that of the cell's first pixel.
    mutating func add(column: Int, row: Int, weight: Double)
}

/// A rectangle of world pixels inside the world, half-open: columns `x0..<x1`, rows `y0..<y1`.
struct PixelQuery {
    var space: PixelSpace
    var x0: Int
    var x1: Int
    var y0: Int
    var y1: Int
}

extension PointIndex {
    /// Cells with at most this many points are read point by point.
    static let leafSize = 16

    /// Walks the implicit quadtree over the points in `query`, reporting each occupied pixel's
    /// weight (or, for sinks that take whole cells, each inside cell's weight) to `sink`.
    ///
    /// Where the index keeps the run starts of the pixels' level (and `fromRunStarts`), a
    /// pixel's run ends at the next start rather than by galloping.
    ///
    /// - Complexity: O(min(points in the query, occupied pixels × log n)); with run starts,
    ///   O(occupied pixels + cells along the query's edges × log n).
    func walk<Sink: CellSink>(_ query: PixelQuery, into sink: inout Sink, fromRunStarts: Bool = true) {
        guard !keys.isEmpty, query.x0 < query.x1, query.y0 < query.y1 else { return }
        let runs = fromRunStarts ? query.space.pixelLevel.flatMap { runStarts.starts(level: $0) } ?? [] : []
        keys.withUnsafeBufferPointer { k in
            weights.withUnsafeBufferPointer { w in
                prefix.withUnsafeBufferPointer { p in
                    runs.withUnsafeBufferPointer { r in
                        let walker = Walker(keys: k, weights: w, prefix: p, runs: r, query: query)
                        walker.start(into: &sink)
                    }
                }
            }
        }
    }
}

/// `a / b` rounded towards minus infinity, for `b > 0`.
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a - 1) / b) - 1
}

/// The recursive walk, over the index's buffers.
private struct Walker {
    let keys: UnsafeBufferPointer<UInt64>
    let weights: UnsafeBufferPointer<Float>
    let prefix: UnsafeBufferPointer<Double>
    /// The first key of each cell of the pixels' level, if the index keeps them (else empty).
    let runs: UnsafeBufferPointer<UInt32>
    let query: PixelQuery

    /// Starts the walk at the smallest quadtree cell that holds the whole query, found with
    /// two binary searches, rather than at the root.
    func start<Sink: CellSink>(into sink: inout Sink) {
        let space = query.space
        let x0 = space.firstUnit(ofPixel: query.x0)
        let x1 = space.firstUnit(ofPixel: query.x1)
        let y0 = space.firstUnit(ofPixel: query.y0)
        let y1 = space.firstUnit(ofPixel: query.y1)
        guard x0 < x1, y0 < y1 else { return }
        let differing = (x0 ^ (x1 - 1)) | (y0 ^ (y1 - 1))
        let level = min(32, 64 - differing.leadingZeroBitCount)
        guard level < 32 else {
            descend(x: 0, y: 0, level: 32, lo: 0, hi: keys.count, into: &sink)
            return
        }
        let mask = ~((UInt64(1) << UInt64(level)) - 1)
        let x = x0 & mask
        let y = y0 & mask
        let base = Morton.key(x: UInt32(truncatingIfNeeded: x), y: UInt32(truncatingIfNeeded: y))
        let lo = lowerBound(base, 0, keys.count)
        // The end of the cell's keys; it wraps to 0 for the last cell of the curve.
        let end = base &+ (UInt64(1) << UInt64(2 * level))
        let hi = end == 0 ? keys.count : lowerBound(end, lo, keys.count)
        descend(x: x, y: y, level: level, lo: lo, hi: hi, into: &sink)
    }

    func descend<Sink: CellSink>(x: UInt64, y: UInt64, level: Int, lo: Int, hi: Int, into sink: inout Sink) {
        if lo == hi { return }
        let space = query.space
        let last = (UInt64(1) << UInt64(level)) - 1
        let px0 = space.pixel(ofUnit: x)
        let px1 = space.pixel(ofUnit: x + last)
        let py0 = space.pixel(ofUnit: y)
        let py1 = space.pixel(ofUnit: y + last)
        if px1 < query.x0 || px0 >= query.x1 || py1 < query.y0 || py0 >= query.y1 { return }
        let inside = px0 >= query.x0 && px1 < query.x1 && py0 >= query.y0 && py1 < query.y1
        if inside && (Sink.takesWholeCells || (px0 == px1 && py0 == py1)) {
            let weight = prefix[hi] - prefix[lo]
            if weight > 0 { sink.add(column: px0, row: py0, weight: weight) }
            return
        }
        if let pixelLevel = space.pixelLevel, !Sink.takesWholeCells, inside || hi - lo <= PointIndex.leafSize {
            scanPixels(lo: lo, hi: hi, pixelLevel: pixelLevel, checkBounds: !inside, into: &sink)
            return
        }
        if hi - lo <= PointIndex.leafSize {
            for i in lo..<hi where weights[i] > 0 {
                let px = space.pixel(ofUnit: UInt64(Morton.x(keys[i])))
                let py = space.pixel(ofUnit: UInt64(Morton.y(keys[i])))
                if px >= query.x0 && px < query.x1 && py >= query.y0 && py < query.y1 {
                    sink.add(column: px, row: py, weight: Double(weights[i]))
                }
            }
            return
        }
        let child = level - 1
        let quarter = UInt64(1) << UInt64(2 * child)
        let base = Morton.key(x: UInt32(truncatingIfNeeded: x), y: UInt32(truncatingIfNeeded: y))
        let b1 = lowerBound(base + quarter, lo, hi)
        let b2 = lowerBound(base + 2 * quarter, b1, hi)
        let b3 = lowerBound(base + 3 * quarter, b2, hi)
        let half = UInt64(1) << UInt64(child)
        descend(x: x, y: y, level: child, lo: lo, hi: b1, into: &sink)
        descend(x: x + half, y: y, level: child, lo: b1, hi: b2, into: &sink)
        descend(x: x, y: y + half, level: child, lo: b2, hi: b3, into: &sink)
        descend(x: x + half, y: y + half, level: child, lo: b3, hi: hi, into: &sink)
    }

    /// Reports each pixel's points in `lo..<hi` as one weight, where pixels are quadtree
    /// cells of 2^`pixelLevel` units (scales 1 and 2), so that each pixel's points are one
    /// run of the sorted keys: the run's end is the next run start where the index keeps
    /// them, else found by galloping; its weight is one subtraction of running sums, the same
    /// subtraction whichever way the walk reached it.
    ///
    /// - Complexity: O(Σ log(run length)) over the occupied pixels, reading keys in order; with
    ///   run starts, O(log n + occupied pixels).
    func scanPixels<Sink: CellSink>(lo: Int, hi: Int, pixelLevel: Int, checkBounds: Bool, into sink: inout Sink) {
        if !runs.isEmpty {
            // `lo` starts a cell of a level at or above the pixels', so it starts a run.
            var r = runs.firstIndex(atLeast: UInt32(truncatingIfNeeded: lo), in: 0..<runs.count)
            if r < runs.count && Int(runs[r]) == lo {
                while r < runs.count && Int(runs[r]) < hi {
                    let i = Int(runs[r])
                    let j = r + 1 < runs.count ? min(hi, Int(runs[r + 1])) : hi
                    report(i, j, checkBounds: checkBounds, into: &sink)
                    r += 1
                }
                return
            }
        }
        let shift = UInt64(2 * pixelLevel)
        var i = lo
        while i < hi {
            let next = (keys[i] >> shift) + 1
            // The first key of the next pixel, or past every key when this is the last cell.
            let j = next >> (64 - shift) == 0 ? gallop(to: next << shift, from: i + 1, hi) : hi
            report(i, j, checkBounds: checkBounds, into: &sink)
            i = j
        }
    }

    /// Reports the pixel whose run of keys is `i..<j` with the run's weight, if positive
    /// (and inside the query when `checkBounds`).
    @inline(__always)
    func report<Sink: CellSink>(_ i: Int, _ j: Int, checkBounds: Bool, into sink: inout Sink) {
        let space = query.space
        let px = space.pixel(ofUnit: UInt64(Morton.x(keys[i])))
        let py = space.pixel(ofUnit: UInt64(Morton.y(keys[i])))
        if !checkBounds || (px >= query.x0 && px < query.x1 && py >= query.y0 && py < query.y1) {
            let weight = prefix[j] - prefix[i]
            if weight > 0 { sink.add(column: px, row: py, weight: weight) }
        }
    }

    /// The first index in `start..<hi` whose key is at least `key`, searching outward from
    /// `start` in doubling steps, then by bisection.
    @inline(__always)
    func gallop(to key: UInt64, from start: Int, _ hi: Int) -> Int {
        keys.firstIndex(atLeast: key, from: start, before: hi)
    }

    /// The first index in `lo..<hi` whose key is at least `key`.
    @inline(__always)
    func lowerBound(_ key: UInt64, _ lo: Int, _ hi: Int) -> Int {
        keys.firstIndex(atLeast: key, in: lo..<hi)
    }
}
