extension WeightSource {
    /// The intensity of every pixel of `rect`, counting every point within reach, in
    /// neighbouring tiles and across the antimeridian too: the source's weights of the pixels
    /// around `rect` (padded by the kernel's reach), convolved as the in-memory index does.
    public func intensity(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) throws(Failure)
        -> IntensityGrid
    {
        try convolved(in: rect, space: space, taps: kernel.taps, reach: kernel.radius)
    }

    /// The pixel weights around `rect` convolved with a separable, symmetric kernel of
    /// `2 * reach + 1` taps (`taps[reach]` at distance 0).
    func convolved(
        in rect: PixelRect, space: PixelSpace, taps kernelTaps: [Float], reach r: Int,
        timings: UnsafeMutablePointer<RenderTimings>? = nil
    ) throws(Failure) -> IntensityGrid {
        let clock = ContinuousClock()
        let start = clock.now
        let padded = rect.expanded(by: r)
        var cells = GatheredCells.reused(width: padded.width, height: padded.height)
        defer { cells.recycle() }
        try gatherWeights(padded, space: space, into: &cells)
        let gathered = clock.now
        let width = max(0, rect.width)
        let height = max(0, rect.height)
        var values = [Float](repeating: 0, count: width * height)
        var maximum: Float = 0
        if !cells.isEmpty {
            values.withUnsafeMutableBufferPointer { out in
                kernelTaps.withUnsafeBufferPointer { taps in
                    maximum = cells.convolve(taps: taps, radius: r, into: out, width: width, height: height)
                }
            }
        }
        if let timings {
            timings.pointee.gather += gathered - start
            timings.pointee.convolve += clock.now - gathered
            timings.pointee.occupiedPixels += cells.rowCounts.reduce(0) { $0 + Int($1) }
        }
        return IntensityGrid(width: width, height: height, values: values, maximum: maximum, isEmpty: cells.isEmpty)
    }

    /// Sums the weight of each pixel of `padded` into `cells`: one query per copy of the world
    /// that the columns overlap (the world wraps east-west), rows clipped to the world.
    func gatherWeights(_ padded: PixelRect, space: PixelSpace, into cells: inout GatheredCells) throws(Failure) {
        for part in padded.worldParts(in: space) {
            let query = WeightQuery(space: space, columns: part.columns, rows: part.rows)
            try cells.withSink(columnOffset: part.offset - padded.x, rowOffset: -padded.y) { (grid) throws(Failure) in
                var sink = PixelWeightSink(grid: grid, columns: part.columns, rows: part.rows)
                try addWeights(of: query, into: &sink)
            }
        }
    }
}
