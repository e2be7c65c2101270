extension ColorMap {
    /// The entry of intensity `value` > 0 under a non-linear scale, from thresholds already
    /// multiplied by the maximum: the bucket of t = value · `inverse` (see ``buckets``), then a
    /// step or two along the thresholds.
    ///
    /// t is rounded in Float, so the bucket may be one off either way; the steps down and up
    /// end at the largest e with `value ≥ limits[e]` however the search starts, which is the
    /// definition, exactly.
    @inline(__always)
    static func entry(
        of value: Float, limits: UnsafeBufferPointer<Double>, buckets: UnsafeBufferPointer<Int32>,
        inverse: Float, last: Int
    ) -> Int {
        let v = Double(value)
        // `<` is false for NaN and infinity too: they take the last entry.
        guard v < limits[last] else { return last }
        let shifted = Int((value * inverse).bitPattern >> bucketShift) - bucketBase
        let bucket = min(max(shifted, 0), bucketCount - 1)
        var e = Int(buckets[bucket])
        while e > 0 && limits[e] > v { e -= 1 }
        while e < last && limits[e + 1] <= v { e += 1 }
        return e
    }

    /// ``colorize(_:maximum:)`` for sqrt and log: `maximum` is finite and > 0.
    func colorizeByThresholds(_ grid: IntensityGrid, maximum: Double, into image: inout RGBAImage) {
        let limits = thresholds.map { $0 * maximum }
        let inverse = Float(1 / maximum)
        let last = count - 1
        limits.withUnsafeBufferPointer { limits in
            buckets.withUnsafeBufferPointer { buckets in
                colorizePositive(grid, into: &image) { v in
                    Self.entry(of: v, limits: limits, buckets: buckets, inverse: inverse, last: last)
                }
            }
        }
    }
}
