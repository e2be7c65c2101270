extension PointIndex {
    /// The smallest interval of longitudes (degrees; `west > east` when it crosses the
    /// antimeridian) that holds every point of `indexes` as they keep them (the centres of
    /// their fixed-point columns, within 1e-7° of the points given), or `nil` without points.
    /// Exact as a data file's report finds it: longitudes fall into 3600 bins of 0.1° keeping
    /// each bin's extremes, and the largest empty gap between occupied bins is cut out; if
    /// every gap is narrower than a bin, the points circle the world and it is -180...180.
    ///
    /// - Complexity: O(n), one pass over the keys.
    public static func longitudeInterval(of indexes: [PointIndex]) -> (west: Double, east: Double)? {
        let bins = 3600
        var low = [UInt32](repeating: .max, count: bins)
        var high = [UInt32](repeating: 0, count: bins)
        var any = false
        for index in indexes {
            for key in index.keys {
                let x = Morton.x(key)
                // 2^32 units over 3600 bins: the bin of x is x * 3600 / 2^32, below 3600.
                let bin = Int((UInt64(x) &* UInt64(bins)) >> 32)
                low[bin] = min(low[bin], x)
                high[bin] = max(high[bin], x)
                any = true
            }
        }
        guard any else { return nil }
        func degrees(_ x: UInt32) -> Double { (Double(x) + 0.5) / 4_294_967_296 * 360 - 180 }
        let occupied = (0..<bins).filter { low[$0] <= high[$0] }
        guard let first = occupied.first, let last = occupied.last else { return nil }
        var best = (gap: degrees(low[first]) + 360 - degrees(high[last]), west: low[first], east: high[last])
        for (a, b) in zip(occupied, occupied.dropFirst()) where degrees(low[b]) - degrees(high[a]) > best.gap {
            best = (degrees(low[b]) - degrees(high[a]), low[b], high[a])
        }
        return best.gap < 0.1 ? (-180, 180) : (degrees(best.west), degrees(best.east))
    }
}
