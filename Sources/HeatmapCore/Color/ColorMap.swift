/// A gradient sampled into a lookup table with opacity applied: what colours a tile.
package struct ColorMap: Sendable {
    /// `count * 4` bytes: red, green, blue, alpha of each entry, alpha already times opacity.
    public let entries: [UInt8]
    /// The number of entries: the gradient's `colorMapSize`.
    public var count: Int { entries.count / 4 }
    /// How intensities pick entries; see ``ColorScale``.
    public let scale: ColorScale
    /// For a scale other than linear: where a pixel's search for its entry starts. Bucket b
    /// holds the shares t = I / M whose Float bit pattern, shifted right by ``bucketShift``,
    /// is ``bucketBase`` + b (2^``bucketMantissaBits`` buckets an octave, from 2^-40 up to 1,
    /// so as fine where a log or sqrt ramp is steep as where it is flat); `buckets[b]` is the
    /// last entry whose threshold τₑ is at most the bucket's lowest share (0 for bucket 0,
    /// which also holds every share below 2^-40).
    let buckets: [Int32]
    /// τₑ of every entry, for a scale other than linear.
    let thresholds: [Double]

    /// The mantissa bits of t that pick a bucket within its octave.
    static let bucketMantissaBits = 9
    /// How far a Float's bit pattern is shifted to give its bucket number.
    static let bucketShift = UInt32(23 - bucketMantissaBits)
    /// The shifted bit pattern of 2^-40, bucket 0.
    static let bucketBase = Int((Float(1) / Float(1 << 20) / Float(1 << 20)).bitPattern >> bucketShift)
    /// The number of buckets: 40 octaves below 1, and one for 1 itself.
    static let bucketCount = 40 << bucketMantissaBits + 1

    /// Samples `gradient` and multiplies every alpha by `opacity` (0...1), rounded; `scale`
    /// (default linear) says how intensities pick entries.
    public init(gradient: Gradient, opacity: Double, scale: ColorScale = .linear) {
        var entries = [UInt8](repeating: 0, count: gradient.colorMapSize * 4)
        let o = min(max(opacity.isNaN ? 0 : opacity, 0), 1)
        for i in 0..<gradient.colorMapSize {
            let c = gradient.color(atEntry: i)
            entries[4 * i] = c.red
            entries[4 * i + 1] = c.green
            entries[4 * i + 2] = c.blue
            entries[4 * i + 3] = UInt8((Double(c.alpha) * o).rounded())
        }
        self.entries = entries
        self.scale = scale
        if scale == .linear {
            thresholds = []
            buckets = []
        } else {
            let thresholds = scale.thresholds(count: gradient.colorMapSize)
            var buckets = [Int32](repeating: 0, count: Self.bucketCount)
            var entry = 0
            for b in 1..<Self.bucketCount {
                let start = Double(Float(bitPattern: UInt32(Self.bucketBase + b) << Self.bucketShift))
                while entry + 1 < thresholds.count && thresholds[entry + 1] <= start { entry += 1 }
                buckets[b] = Int32(truncatingIfNeeded: entry)
            }
            self.thresholds = thresholds
            self.buckets = buckets
        }
    }

    /// Colours an intensity grid: with the linear scale a pixel of intensity I > 0 takes entry
    /// min(count − 1, ⌊I / maximum · (count − 1)⌋), with another the largest e with
    /// I ≥ τₑ · maximum (see ``ColorScale``); a pixel of intensity 0 is transparent.
    ///
    /// Any M > 0 works, however small or large against the intensities: I / M · (count − 1)
    /// is clamped to the last entry in floating point before it becomes an index, so a tiny
    /// M (even a subnormal one, where the factor is infinite) colours every I > 0 with the
    /// last entry, as the definition says.
    ///
    /// - Parameter maximum: M, the normalisation value; a value ≤ 0, infinite or NaN gives a
    ///   transparent image.
    /// - Complexity: O(pixels); runs of eight zero intensities are skipped at once.
    public func colorize(_ grid: IntensityGrid, maximum: Double) -> RGBAImage {
        var image = RGBAImage(transparentWidth: grid.width, height: grid.height)
        guard maximum > 0, maximum.isFinite else { return image }
        if scale != .linear {
            colorizeByThresholds(grid, maximum: maximum, into: &image)
            return image
        }
        let factor = Double(count - 1) / maximum
        let last = count - 1
        let lastEntry = Double(last)
        colorizePositive(grid, into: &image) { v in
            // Clamped before converting: the product may be far beyond Int (or infinite);
            // `<` is false for NaN too, which takes the last.
            let scaled = Double(v) * factor
            return scaled < lastEntry ? Int(scaled) : last
        }
        return image
    }
}
