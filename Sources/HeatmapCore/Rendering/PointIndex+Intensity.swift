extension PointIndex {
    /// The intensity of every pixel of `rect`, counting every point within reach, in
    /// neighbouring tiles and across the antimeridian too.
    ///
    /// Gather: the weights of the pixels around `rect` (padded by the kernel's reach R) are
    /// summed from the index. Convolve: each occupied row is convolved along x by the kernel,
    /// then each output pixel sums the kernel times the rows within reach; rows and blocks of
    /// columns that hold nothing are skipped. The order of every sum is fixed, so a pixel gets
    /// the same value in any rectangle that contains it.
    ///
    /// - Complexity: O(min(points, occupied pixels × log n)) to gather, and at most
    ///   O((w + 2R + h) · w · (2R + 1)) to convolve.
    public func intensity(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) -> IntensityGrid {
        convolved(in: rect, space: space, taps: kernel.taps, reach: kernel.radius)
    }

    /// The pixel weights around `rect` convolved with a separable, symmetric kernel of
    /// `2 * reach + 1` taps (`taps[reach]` at distance 0).
    func convolved(
        in rect: PixelRect, space: PixelSpace, taps kernelTaps: [Float], reach r: Int,
        timings: UnsafeMutablePointer<RenderTimings>? = nil
    ) -> IntensityGrid {
        let clock = ContinuousClock()
        let start = clock.now
        let padded = rect.expanded(by: r)
        var cells = GatheredCells(width: padded.width, height: padded.height)
        gather(padded, space: space, into: &cells)
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

    /// ``intensity(in:space:kernel:)``, adding the time spent in each phase to `timings`.
    @_spi(Benchmark)
    public func intensity(
        in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel, timings: inout RenderTimings
    ) -> IntensityGrid {
        withUnsafeMutablePointer(to: &timings) { pointer in
            convolved(in: rect, space: space, taps: kernel.taps, reach: kernel.radius, timings: pointer)
        }
    }

    /// Sums the weight of each pixel of `padded` into `cells`, one query per world copy, from
    /// the summary of the pixels' level if the index keeps one, else from the keys, stepping
    /// by run starts where the index keeps those; either way the same floats.
    /// `fromSummaries: false` uses neither summaries nor run starts (for tests).
    ///
    /// - Complexity: O(occupied pixels + pixels along the edges × log n) with a summary, else
    ///   O(min(points, occupied pixels × log n)).
    func gather(
        _ padded: PixelRect, space: PixelSpace, into cells: inout GatheredCells, fromSummaries: Bool = true
    ) {
        let world = space.worldSize
        let rows = max(0, padded.y)..<min(world, padded.y + padded.height)
        guard !rows.isEmpty else { return }
        // Where pixels are the cells of a summary, one entry a pixel rather than its keys.
        let summary = fromSummaries ? space.pixelLevel.flatMap { summaries.summary(level: $0) } : nil
        PointIndex.forEachWorldCopy(of: padded.x..<(padded.x + padded.width), worldSize: world) { columns, offset in
            cells.withSink(columnOffset: offset - padded.x, rowOffset: -padded.y) { sink in
                let query = PixelQuery(
                    space: space, x0: columns.lowerBound, x1: columns.upperBound, y0: rows.lowerBound,
                    y1: rows.upperBound)
                if let summary {
                    summary.walk(query, into: &sink)
                } else {
                    walk(query, into: &sink, fromRunStarts: fromSummaries)
                }
            }
        }
    }
}

/// Time spent in the phases of rendering intensities, for the benchmark.
@_spi(Benchmark)
public struct RenderTimings: Sendable {
    /// Walking the index and summing pixel weights.
    public var gather: Duration = .zero
    /// Convolving and finding the maximum.
    public var convolve: Duration = .zero
    /// The pixels of the padded rectangles that held weight (a pixel reached twice, across
    /// the antimeridian, counts twice).
    public var occupiedPixels = 0

    /// No time yet.
    public init() {}
}
