/// Points with a weight and a value each, for the kernel-weighted mean of the values:
///
///     mean(p) = Σ wᵢ·vᵢ·K(p − pᵢ) / Σ wᵢ·K(p − pᵢ)
///
/// Two channels over the same keys: `density`, the points with their weights wᵢ (the
/// heatmap's own index), and the points with weights wᵢ·(vᵢ − ``lowest``) ≥ 0, which share
/// the density's keys. Both go through the one gather and convolution of every tile, so the
/// numerator and denominator are exact intensities, and
/// mean = lowest + numerator / density.
public struct ValueIndex: Sendable {
    /// The points with their weights: the density Σ wᵢ·K, and M(z) if wanted.
    package let density: PointIndex
    /// The points with weights wᵢ·(vᵢ − lowest), on the density's keys.
    let shiftedValues: PointIndex
    /// The smallest value of a point of positive weight (0 without one).
    public let lowest: Double
    /// The largest value of a point of positive weight (0 without one).
    public let highest: Double

    /// Builds the index of points and their values (`values[i]` belongs to `points[i]`).
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for an invalid point or value,
    ///   or a count of values that is not the count of points; see ``Builder``.
    public init(points: [WeightedLatLng], values: [Double]) throws(HeatmapError) {
        guard points.count == values.count else {
            throw .invalidMean("\(points.count) points but \(values.count) values")
        }
        var builder = Builder(capacity: points.count)
        for (point, value) in zip(points, values) {
            try builder.append(
                latitude: point.coordinate.latitude, longitude: point.coordinate.longitude,
                intensity: point.intensity, value: value)
        }
        self = try builder.build()
    }

    init(density: PointIndex, shiftedValues: PointIndex, lowest: Double, highest: Double) {
        self.density = density
        self.shiftedValues = shiftedValues
        self.lowest = lowest
        self.highest = highest
    }

    /// The memory the two channels hold, in bytes (their keys counted once).
    package var byteCount: Int { density.byteCount + shiftedValues.byteCount - density.count * 8 }

    /// Collects points with values one at a time: the density's `PointIndex/Builder` and
    /// 20 bytes a point more (the key again, the value, the weight) until ``build()``.
    public struct Builder: Sendable {
        private var density: PointIndex.Builder
        private var keys: [UInt64] = []
        private var weights: [Float] = []
        private var values: [Double] = []

        /// An empty builder with room for `capacity` points.
        public init(capacity: Int = 0) {
            density = PointIndex.Builder(capacity: capacity)
            keys.reserveCapacity(max(0, capacity))
            weights.reserveCapacity(max(0, capacity))
            values.reserveCapacity(max(0, capacity))
        }

        /// The number of points appended so far; the next point's index in errors.
        public var count: Int { density.count }

        /// Adds a point and its value.
        ///
        /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for what
        ///   `PointIndex/Builder/append(latitude:longitude:intensity:)` refuses, and for a
        ///   value that is not a finite number of at most Float's largest magnitude.
        public mutating func append(latitude: Double, longitude: Double, intensity: Double = 1, value: Double)
            throws(HeatmapError)
        {
            guard value.isFinite, value.magnitude <= Double(Float.greatestFiniteMagnitude) else {
                throw .invalidPoint(index: count, reason: "value \(value) is not a finite number")
            }
            try density.append(latitude: latitude, longitude: longitude, intensity: intensity)
            keys.append(
                Morton.key(x: WebMercator.unitX(longitude: longitude), y: WebMercator.unitY(latitude: latitude)))
            weights.append(Float(intensity))
            values.append(value)
        }

        /// The index of the points appended; the builder is left empty.
        ///
        /// - Throws: ``HeatmapError/invalidMean(_:)`` when the weights times the values' distance
        ///   from the lowest value sum above `PointIndex/maximumTotalWeight`.
        public mutating func build() throws(HeatmapError) -> ValueIndex {
            var lowest = Double.infinity
            var highest = -Double.infinity
            for i in 0..<values.count where weights[i] > 0 {
                lowest = min(lowest, values[i])
                highest = max(highest, values[i])
            }
            if lowest > highest { (lowest, highest) = (0, 0) }
            var shifted = [Float](repeating: 0, count: values.count)
            var total = 0.0
            for i in 0..<values.count where weights[i] > 0 {
                let product = Float(Double(weights[i]) * (values[i] - lowest))
                total += Double(product)
                guard product.isFinite, total <= PointIndex.maximumTotalWeight else {
                    throw .invalidMean(
                        "point \(i): weight × (value − \(lowest)) brings the sum above \(PointIndex.maximumTotalWeight), "
                            + "the most one data set may hold; scale the values or weights down")
                }
                shifted[i] = product
            }
            values = []
            weights = []
            var keys: [UInt64] = []
            swap(&keys, &self.keys)
            // The same keys in the same order as the density's (the sort is stable, and equal
            // keys are one pixel at every zoom anyway), so the channel shares them.
            RadixSort.sort(keys: &keys, weights: &shifted)
            keys = []
            let density = self.density.build()
            return ValueIndex(
                density: density, shiftedValues: density.withWeights(shifted), lowest: lowest, highest: highest)
        }
    }
}
