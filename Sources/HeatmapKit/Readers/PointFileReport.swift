/// What reading a points file found: counts, skipped rows, bounds and weights.
public struct PointFileReport: Sendable, Hashable {
    /// How many skipped lines ``skippedLines`` keeps.
    package static let skippedLinesKept = 10

    /// The file's path as given (`-` for standard input).
    public var path: String
    /// The format read.
    public var format: PointFormat
    /// The number of points indexed.
    public var pointsRead: Int
    /// The number of invalid rows skipped (only with ``PointReadOptions/skipInvalid``).
    public var skippedCount: Int
    /// The lines of the first few skipped rows (up to `skippedLinesKept`), in order.
    public var skippedLines: [Int]
    /// The number of points beyond ±85.05112878° latitude, kept and clamped when drawn.
    package var clampedLatitudeCount: Int
    /// The number of points of weight 0, kept but drawing nothing.
    package var zeroWeightCount: Int
    /// The smallest box holding every point, or `nil` without points.
    public var bounds: PointBounds?
    /// The weights' minimum, maximum, sum and mean, or `nil` without points.
    package var weights: WeightStatistics?
    /// Up to 1000 points' positions as world fractions (x east from the antimeridian, y south
    /// from the north), a seeded uniform sample used to estimate the spacing between points.
    package var sample: [SIMD2<Double>]
    /// The CSV or TSV rows with more fields than the header, read without their extra fields
    /// (see ``longRowSummary``); 0 for other formats.
    package var longRowCount = 0
    /// The line of the first such row, or `nil` when none has more fields.
    package var firstLongRowLine: Int? = nil
    /// The header's number of fields, when a row has more, or `nil`.
    package var headerFieldCount: Int? = nil

    /// One line for people: `12 rows skipped (lines 4, 9, …)`, or `nil` when none were.
    package var skipSummary: String? {
        guard skippedCount > 0 else { return nil }
        let lines = skippedLines.map(String.init).joined(separator: ", ")
        let more = skippedCount > skippedLines.count ? ", …" : ""
        let rows = skippedCount == 1 ? "1 invalid row" : "\(skippedCount) invalid rows"
        return
            "\(path == "-" ? "<stdin>" : path): skipped \(rows) (line\(skippedCount == 1 ? "" : "s") \(lines)\(more))"
    }
}

/// A latitude-longitude box in degrees. Longitudes are in -180..<180 and the box is the
/// smallest longitude interval holding every point, so `west > east` when it crosses the
/// antimeridian (west 170, east -170 is 20° wide).
public struct PointBounds: Sendable, Hashable, Codable {
    /// The southernmost latitude.
    public var south: Double
    /// The western edge's longitude.
    public var west: Double
    /// The northernmost latitude.
    public var north: Double
    /// The eastern edge's longitude.
    public var east: Double

    /// Creates a box.
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Whether the box crosses the antimeridian (`west > east`).
    package var crossesAntimeridian: Bool { west > east }

    /// The box's width in degrees of longitude, 0...360.
    package var longitudeSpan: Double { crossesAntimeridian ? east + 360 - west : east - west }
}

/// The minimum, maximum, sum and mean of the weights read.
package struct WeightStatistics: Sendable, Hashable, Codable {
    /// The smallest weight.
    public var minimum: Double
    /// The largest weight.
    public var maximum: Double
    /// The sum of all weights.
    public var sum: Double
    /// The mean weight.
    public var mean: Double

    /// Creates statistics.
    public init(minimum: Double, maximum: Double, sum: Double, mean: Double) {
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
        self.mean = mean
    }
}
