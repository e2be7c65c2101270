extension PointIndex {
    /// The southernmost and northernmost latitudes of the points, in degrees, as the index
    /// holds them (the centres of their fixed-point rows, clamped to the Mercator square), or
    /// `nil` without points.
    ///
    /// - Complexity: O(n), one pass over the keys.
    public var latitudeRange: ClosedRange<Double>? {
        guard !keys.isEmpty else { return nil }
        var low = UInt32.max
        var high = UInt32.min
        for key in keys {
            let y = Morton.y(key)
            low = min(low, y)
            high = max(high, y)
        }
        // Unit y grows southwards: the largest row is the southernmost point.
        let south = WebMercator.latitude(worldFraction: (Double(high) + 0.5) / 4_294_967_296)
        let north = WebMercator.latitude(worldFraction: (Double(low) + 0.5) / 4_294_967_296)
        return south...north
    }

    /// The index of the same points with other weights (`weights[i]` for the point of key
    /// `keys[i]`), sharing this index's keys: for a second channel such as a ``ValueIndex``.
    func withWeights(_ weights: consuming [Float]) -> PointIndex {
        PointIndex(sortedKeys: keys, weights: weights)
    }
}
