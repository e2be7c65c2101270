extension PointIndex {
    /// Collects points one at a time, 12 bytes each, and builds the index from them: the
    /// way to index millions of points read from a file without keeping them twice.
    ///
    /// ```swift
    /// var builder = PointIndex.Builder()
    /// try builder.append(latitude: -37.8, longitude: 144.9, intensity: 2)
    /// let index = builder.build()
    /// ```
    public struct Builder: Sendable {
        private var keys: [UInt64] = []
        private var weights: [Float] = []
        /// The sum of the weights appended, as the index keeps them (``PointIndex/storedWeight(_:)``).
        public private(set) var totalWeight = 0.0

        /// Creates an empty builder with room for `capacity` points.
        public init(capacity: Int = 0) {
            keys.reserveCapacity(max(0, capacity))
            weights.reserveCapacity(max(0, capacity))
        }

        /// The number of points appended so far; the next point's index in errors.
        public var count: Int { keys.count }

        /// Adds a point.
        ///
        /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` (index = ``count``) for a
        ///   latitude that is not a number in -90...90 (beyond ±85.05112878 it is kept and
        ///   clamped when drawn), a longitude that is not finite (any finite one wraps), an
        ///   intensity that is not finite and at least 0 or too large for 32-bit floats, or one
        ///   that would bring the sum of the weights above ``PointIndex/maximumTotalWeight``.
        public mutating func append(latitude: Double, longitude: Double, intensity: Double = 1) throws(HeatmapError) {
            try Self.check(latitude: latitude, longitude: longitude, intensity: intensity, index: count)
            let total = totalWeight + PointIndex.storedWeight(intensity)
            guard total <= PointIndex.maximumTotalWeight else {
                throw .invalidPoint(index: count, reason: PointIndex.totalWeightReason("intensity \(intensity)"))
            }
            if keys.count == keys.capacity {
                // Grow by a quarter, not double: the sort later needs as much again for scratch.
                let capacity = keys.count + keys.count / 4 + 1024
                keys.reserveCapacity(capacity)
                weights.reserveCapacity(capacity)
            }
            keys.append(
                Morton.key(x: WebMercator.unitX(longitude: longitude), y: WebMercator.unitY(latitude: latitude)))
            weights.append(Float(intensity))
            totalWeight = total
        }

        /// Throws what ``append(latitude:longitude:intensity:)`` throws for the point's own values
        /// (not for the sum of the weights), naming it point `index`.
        static func check(latitude: Double, longitude: Double, intensity: Double, index: Int) throws(HeatmapError) {
            guard latitude.isFinite, (-90...90).contains(latitude) else {
                throw .invalidPoint(index: index, reason: "latitude \(latitude) is outside -90...90")
            }
            guard longitude.isFinite else {
                throw .invalidPoint(index: index, reason: "longitude \(longitude) is not a finite number")
            }
            guard intensity.isFinite, intensity >= 0, intensity <= Double(Float.greatestFiniteMagnitude) else {
                throw .invalidPoint(index: index, reason: "intensity \(intensity) is not a finite number ≥ 0")
            }
        }

        /// Adds a weighted point; see ``append(latitude:longitude:intensity:)``.
        public mutating func append(_ point: WeightedLatLng) throws(HeatmapError) {
            try append(
                latitude: point.coordinate.latitude, longitude: point.coordinate.longitude, intensity: point.intensity)
        }

        /// The index of the points appended; the builder is left empty.
        ///
        /// The builder hands its arrays to the index, so that the sort can reuse their memory:
        /// the peak is the 12 bytes a point held here, 12 more for the sort's scratch, and
        /// then the index's own arrays as the scratch is freed.
        ///
        /// - Complexity: O(n), a radix sort.
        public mutating func build() -> PointIndex {
            // Sort the arrays where they are, held by nothing else, so that the sort writes into
            // them rather than into copies; then hand them to the index.
            RadixSort.sort(keys: &self.keys, weights: &self.weights)
            var keys: [UInt64] = []
            var weights: [Float] = []
            swap(&keys, &self.keys)
            swap(&weights, &self.weights)
            totalWeight = 0
            return PointIndex(sortedKeys: consume keys, weights: consume weights)
        }
    }

    /// The indexed points, at the centre of their fixed-point units and with their 32-bit
    /// weights, in index (Z-order) order: what an index built from a file holds.
    ///
    /// - Complexity: O(n).
    public var points: [WeightedLatLng] {
        (0..<count).map { i in
            let x = (Double(Morton.x(keys[i])) + 0.5) / 4_294_967_296
            let y = (Double(Morton.y(keys[i])) + 0.5) / 4_294_967_296
            return WeightedLatLng(
                coordinate: Coordinate(
                    latitude: WebMercator.latitude(worldFraction: y), longitude: WebMercator.longitude(worldFraction: x)
                ),
                intensity: Double(weights[i]))
        }
    }
}
