/// Where pixel weights come from: the one seam between the data and the pipeline that draws it.
///
/// A source answers the weight of every occupied pixel of a rectangle of world pixels at a
/// zoom and scale; the convolution, M(z) (``maximumIntensity(space:kernel:)``, the one search
/// over the occupied cells of coarser levels, which a source may answer itself: see
/// `CellSource`), colouring and encoding that follow are the same for every source. ``PointIndex`` is the in-memory source; a database that sums its rows per
/// pixel (`GROUP BY`) is another.
///
/// A pixel's weight is the sum of the weights of the points whose fixed-point position (see
/// ``WebMercator``) falls in it; only pixels of positive weight need be reported, each once
/// or in parts.
package protocol WeightSource: Sendable {
    /// What a query can fail with; `Never` for sources in memory.
    associatedtype Failure: Error

    /// Adds to `sink` the weight of every occupied pixel of `query`, a rectangle inside the
    /// world (the caller splits rectangles that cross the antimeridian).
    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(Failure)

    /// The intensity of every pixel of `rect`. The default gathers the weights around `rect`
    /// (one ``addWeights(of:into:)`` per copy of the world it overlaps) and convolves them;
    /// a source may wrap that, to read all of one tile's queries from one state of its data.
    func intensity(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) throws(Failure) -> IntensityGrid
}

/// A rectangle of world pixels inside the world, half open: `columns` × `rows`.
package struct WeightQuery: Sendable, Hashable {
    /// The zoom and scale of the pixels.
    public let space: PixelSpace
    /// The columns, inside `0..<space.worldSize`.
    public let columns: Range<Int>
    /// The rows, inside `0..<space.worldSize`.
    public let rows: Range<Int>

    /// The first unit x (inclusive) and the end unit x (exclusive) of the query's columns.
    public var unitColumns: Range<UInt64> {
        space.firstUnit(ofPixel: columns.lowerBound)..<space.firstUnit(ofPixel: columns.upperBound)
    }

    /// The first unit y (inclusive) and the end unit y (exclusive) of the query's rows.
    public var unitRows: Range<UInt64> {
        space.firstUnit(ofPixel: rows.lowerBound)..<space.firstUnit(ofPixel: rows.upperBound)
    }
}

/// Receives the pixel weights a ``WeightSource`` finds for one ``WeightQuery``.
package struct PixelWeightSink {
    var grid: GridSink
    /// The query's columns and rows: positions outside are refused.
    let columns: Range<Int>
    let rows: Range<Int>

    /// Adds `weight` to world pixel (`column`, `row`); returns `false`, adding nothing, when
    /// the pixel is outside the query or the weight is not a finite number ≥ 0.
    @discardableResult
    public mutating func add(column: Int, row: Int, weight: Double) -> Bool {
        guard columns.contains(column), rows.contains(row), weight.isFinite, weight >= 0 else { return false }
        if weight > 0 { grid.add(column: column, row: row, weight: weight) }
        return true
    }
}
