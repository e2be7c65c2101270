extension PointIndex {
    /// The total weight of the points in a rectangle of pixels; columns wrap around the
    /// world, rows are clipped to it.
    ///
    /// - Complexity: O(cells along the rectangle's edges × log n).
    public func weight(in rect: PixelRect, space: PixelSpace) -> Double {
        var sink = WeightSink()
        for query in WeightQuery.covering(rect, space: space) {
            let pixels = PixelQuery(
                space: space, x0: query.columns.lowerBound, x1: query.columns.upperBound, y0: query.rows.lowerBound,
                y1: query.rows.upperBound)
            walk(pixels, into: &sink)
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
