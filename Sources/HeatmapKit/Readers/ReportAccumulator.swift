import HeatmapCore

/// Gathers a ``PointFileReport``'s statistics point by point in constant memory.
///
/// Longitudes fall into 3600 bins of 0.1° keeping each bin's extremes, so the bounds'
/// longitude interval is exact: the largest empty gap between occupied bins is cut out. If
/// every gap is narrower than a bin, the points circle the world and the bounds are -180...180.
struct ReportAccumulator {
    static let bins = 3600
    static let sampleSize = 1000

    var count = 0
    var clamped = 0
    var zeroWeights = 0
    var south = Double.infinity
    var north = -Double.infinity
    var minimumWeight = Double.infinity
    var maximumWeight = -Double.infinity
    var weightSum = 0.0
    var binMinimum = [Double](repeating: .infinity, count: bins)
    var binMaximum = [Double](repeating: -.infinity, count: bins)
    var sample: [SIMD2<Double>] = []
    var random = SplitMix64(seed: 0x4845_4154_4D41_50)

    mutating func add(latitude: Double, longitude: Double, weight: Double) {
        count += 1
        if abs(latitude) > WebMercator.maximumLatitude { clamped += 1 }
        if weight == 0 { zeroWeights += 1 }
        south = min(south, latitude)
        north = max(north, latitude)
        minimumWeight = min(minimumWeight, weight)
        maximumWeight = max(maximumWeight, weight)
        weightSum += weight
        var wrapped = longitude
        if !(-180..<180).contains(wrapped) {
            // The remainder is exact at any size (x - 360 * floor(x / 360) is not: for 3e34 it
            // left -4.6e18, which trapped below).
            wrapped = wrapped.truncatingRemainder(dividingBy: 360)
            if wrapped >= 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        }
        let bin = min(Self.bins - 1, max(0, Int((wrapped + 180) * 10)))
        binMinimum[bin] = min(binMinimum[bin], wrapped)
        binMaximum[bin] = max(binMaximum[bin], wrapped)
        if sample.count < Self.sampleSize {
            sample.append(position(latitude: latitude, longitude: wrapped))
        } else {
            let slot = Int(random.next() % UInt64(count))
            if slot < Self.sampleSize { sample[slot] = position(latitude: latitude, longitude: wrapped) }
        }
    }

    private func position(latitude: Double, longitude: Double) -> SIMD2<Double> {
        SIMD2(
            Double(WebMercator.unitX(longitude: longitude)) / 4_294_967_296,
            Double(WebMercator.unitY(latitude: latitude)) / 4_294_967_296)
    }

    /// The smallest longitude interval holding every point
    /// (``SuggestedZooms/longitudeInterval(bins:)`` over the bins).
    func longitudeInterval() -> (west: Double, east: Double)? {
        SuggestedZooms.longitudeInterval(
            bins: (0..<Self.bins).map { binMinimum[$0] <= binMaximum[$0] ? (binMinimum[$0], binMaximum[$0]) : nil })
    }

    func report(path: String, format: PointFormat, skipped: Int, skippedLines: [Int]) -> PointFileReport {
        var bounds: PointBounds?
        var weights: WeightStatistics?
        if count > 0, let interval = longitudeInterval() {
            bounds = PointBounds(south: south, west: interval.west, north: north, east: interval.east)
            weights = WeightStatistics(
                minimum: minimumWeight, maximum: maximumWeight, sum: weightSum, mean: weightSum / Double(count))
        }
        return PointFileReport(
            path: path, format: format, pointsRead: count, skippedCount: skipped, skippedLines: skippedLines,
            clampedLatitudeCount: clamped, zeroWeightCount: zeroWeights, bounds: bounds, weights: weights,
            sample: sample)
    }
}
