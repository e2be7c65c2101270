extension ColorMap {
    /// The entry of intensity `value` > 0 under a non-linear scale, from thresholds already
    /// multiplied by the maximum: a bucket lookup, then a step or two up the thresholds.
    ///
    /// The bucket is taken one below the computed one, so rounding in `value · perBucket` can
    /// never start the search above the answer; the step loop then finds the largest e with
    /// `value ≥ limits[e]`.
    @inline(__always)
    static func entry(
        of value: Double, limits: UnsafeBufferPointer<Double>, buckets: UnsafeBufferPointer<Int32>,
        perBucket: Double, last: Int
    ) -> Int {
        // `<` is false for NaN and infinity too: they take the last entry.
        guard value < limits[last] else { return last }
        let scaled = value * perBucket
        let bucket = scaled < Double(bucketCount) ? max(0, Int(scaled) - 1) : bucketCount - 1
        var e = Int(buckets[bucket])
        while e < last && limits[e + 1] <= value { e += 1 }
        return e
    }

    /// ``colorize(_:maximum:)`` for sqrt and log: `maximum` is finite and > 0.
    func colorizeByThresholds(_ grid: IntensityGrid, maximum: Double, into image: inout RGBAImage) {
        let limits = thresholds.map { $0 * maximum }
        let perBucket = Double(Self.bucketCount) / maximum
        let last = count - 1
        limits.withUnsafeBufferPointer { limits in
            buckets.withUnsafeBufferPointer { buckets in
                grid.values.withUnsafeBufferPointer { values in
                    entries.withUnsafeBytes { table in
                        image.pixels.withUnsafeMutableBytes { out in
                            guard let target = out.baseAddress else { return }
                            for (i, v) in values.enumerated() where v > 0 {
                                let entry = Self.entry(
                                    of: Double(v), limits: limits, buckets: buckets, perBucket: perBucket, last: last)
                                target.storeBytes(
                                    of: table.loadUnaligned(fromByteOffset: 4 * entry, as: UInt32.self),
                                    toByteOffset: 4 * i, as: UInt32.self)
                            }
                        }
                    }
                }
            }
        }
    }
}
