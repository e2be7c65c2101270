extension PointIndex {
    /// The largest intensity of any pixel of the whole world at a zoom and scale: the
    /// normalisation value M(z) that gives every tile of the zoom one colour scale.
    ///
    /// Branch and bound: a rectangle's intensities cannot exceed the weight within reach of
    /// it (the kernel is at most 1), and that weight is a handful of range sums. Rectangles
    /// are taken in order of that bound, halved until they are blocks of `blockSize`
    /// pixels, and blocks are rendered exactly; the search stops when no bound is above the
    /// best intensity found. The answer is deterministic and equals the maximum of the
    /// rendered tiles (to float rounding).
    ///
    /// - Returns: 0 when no point has positive weight.
    /// - Complexity: in the worst case that of rendering every occupied block; usually a
    ///   few blocks around the densest places.
    public func maximumIntensity(space: PixelSpace, kernel: GaussianKernel, blockSize: Int = 64) -> Float {
        let world = space.worldSize
        var best: Float = 0
        var heap = MaxHeap<Candidate>()
        heap.push(Candidate(bound: totalWeight, rect: PixelRect(x: 0, y: 0, width: world, height: world)))
        while let top = heap.pop(), top.bound > Double(best) {
            let rect = top.rect
            if rect.width <= blockSize && rect.height <= blockSize {
                best = max(best, intensity(in: rect, space: space, kernel: kernel).maximum)
                continue
            }
            let widths = rect.width > blockSize ? [rect.width / 2, rect.width - rect.width / 2] : [rect.width]
            let heights = rect.height > blockSize ? [rect.height / 2, rect.height - rect.height / 2] : [rect.height]
            var y = rect.y
            for height in heights {
                var x = rect.x
                for width in widths {
                    let child = PixelRect(x: x, y: y, width: width, height: height)
                    let bound = weight(in: child.expanded(by: kernel.radius), space: space)
                    if bound > Double(best) { heap.push(Candidate(bound: bound, rect: child)) }
                    x += width
                }
                y += height
            }
        }
        return best
    }

    /// The total weight of the points in a rectangle of pixels; columns wrap around the
    /// world, rows are clipped to it.
    ///
    /// - Complexity: O(cells along the rectangle's edges × log n).
    public func weight(in rect: PixelRect, space: PixelSpace) -> Double {
        let world = space.worldSize
        let rows = max(0, rect.y)..<min(world, rect.y + rect.height)
        guard !rows.isEmpty else { return 0 }
        let columns = rect.width >= world ? 0..<world : rect.x..<(rect.x + rect.width)
        var sink = WeightSink()
        PointIndex.forEachWorldCopy(of: columns, worldSize: world) { range, _ in
            walk(
                PixelQuery(
                    space: space, x0: range.lowerBound, x1: range.upperBound, y0: rows.lowerBound, y1: rows.upperBound),
                into: &sink)
        }
        return sink.total
    }
}

/// Sums the weight of whole cells.
private struct WeightSink: CellSink {
    static var takesWholeCells: Bool { true }
    var total = 0.0
    mutating func add(column: Int, row: Int, weight: Double) { total += weight }
}

/// A rectangle waiting to be searched, with the bound on its intensities.
private struct Candidate: Comparable {
    var bound: Double
    var rect: PixelRect
    static func < (a: Candidate, b: Candidate) -> Bool {
        if a.bound != b.bound { return a.bound < b.bound }
        // Ties broken by position, so the search order never depends on anything else.
        return (a.rect.y, a.rect.x) > (b.rect.y, b.rect.x)
    }
    static func == (a: Candidate, b: Candidate) -> Bool { a.bound == b.bound && a.rect == b.rect }
}
