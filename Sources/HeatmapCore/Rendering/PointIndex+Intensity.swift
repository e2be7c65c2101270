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
        if fromSummaries {
            gatherWeights(padded, space: space, into: &cells)
            return
        }
        for part in padded.worldParts(in: space) {
            cells.withSink(columnOffset: part.offset - padded.x, rowOffset: -padded.y) { sink in
                let query = PixelQuery(
                    space: space, x0: part.columns.lowerBound, x1: part.columns.upperBound, y0: part.rows.lowerBound,
                    y1: part.rows.upperBound)
                walk(query, into: &sink, fromRunStarts: false)
            }
        }
    }
}

extension PointIndex: WeightSource {
    /// The index answers from memory: it never fails.
    public typealias Failure = Never

    /// Adds the weight of each occupied pixel of `query` from the summary of the pixels' level
    /// if the index keeps one (one entry a pixel rather than its keys), else from the keys,
    /// stepping by run starts where the index keeps those; either way the same floats.
    public func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        let pixels = PixelQuery(
            space: query.space, x0: query.columns.lowerBound, x1: query.columns.upperBound,
            y0: query.rows.lowerBound, y1: query.rows.upperBound)
        if let summary = query.space.pixelLevel.flatMap({ summaries.summary(level: $0) }) {
            summary.walk(pixels, into: &sink.grid)
        } else {
            walk(pixels, into: &sink.grid)
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
