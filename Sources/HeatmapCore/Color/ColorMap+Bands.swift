/// A ``ColorMap`` with a tile's maximum M applied, colouring intensities a band of rows at a
/// time into a buffer of the caller's: the pixels ``ColorMap/colorize(_:maximum:)`` gives.
package struct BandColorizer {
    let map: ColorMap
    /// Whether M is finite and > 0 (else every pixel stays transparent).
    let draws: Bool
    /// For the linear scale: (count − 1) / M.
    let factor: Double
    /// For another scale: the thresholds times M, and 1 / M.
    let limits: [Double]
    let inverse: Float

    /// The colours of `map` for intensities normalised by `maximum`.
    package init(_ map: ColorMap, maximum: Double) {
        self.map = map
        draws = maximum > 0 && maximum.isFinite
        factor = draws ? Double(map.count - 1) / maximum : 0
        limits = draws && map.scale != .linear ? map.thresholds.map { $0 * maximum } : []
        inverse = draws ? Float(1 / maximum) : 0
    }

    /// Writes the colour of each of the `count` intensities at `values` whose intensity is
    /// above 0 to the 4 bytes for it at `pixels` (RGBA); the others stay as they are (zero:
    /// transparent, in a buffer the caller cleared).
    package func colorize(_ values: UnsafePointer<Float>, count: Int, into pixels: UnsafeMutableRawPointer) {
        guard draws else { return }
        let last = map.count - 1
        if map.scale != .linear {
            limits.withUnsafeBufferPointer { limits in
                map.buckets.withUnsafeBufferPointer { buckets in
                    map.colorizePositive(values, count: count, into: pixels) { v in
                        ColorMap.entry(of: v, limits: limits, buckets: buckets, inverse: inverse, last: last)
                    }
                }
            }
            return
        }
        let factor = self.factor
        let lastEntry = Double(last)
        map.colorizePositive(values, count: count, into: pixels) { v in
            // As in ``ColorMap/colorize(_:maximum:)``: clamped before converting.
            let scaled = Double(v) * factor
            return scaled < lastEntry ? Int(scaled) : last
        }
    }
}
