/// The kernel-weighted mean over a rectangle of pixels, and the density it is shown by.
public struct MeanGrid: Sendable {
    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    /// The mean of each pixel, row-major, north row first; NaN where the density is 0 or
    /// below the minimum (the pixel is clear).
    public let means: [Float]
    /// The density Σ wᵢ·K of each pixel, the heatmap's intensity.
    public let density: IntensityGrid
    /// Whether no pixel is shown.
    public let isEmpty: Bool

    /// Each shown pixel's place t in `range` (0 at the lower end, 1 at the upper, clamped; 1
    /// for every pixel when the range is one value), as an intensity grid for a colour map
    /// with M = 1: clear pixels are 0, and t = 0 is the smallest positive float, so that it
    /// takes the first entry rather than none.
    package func positions(in range: ClosedRange<Double>) -> IntensityGrid {
        let low = range.lowerBound
        let span = range.upperBound - range.lowerBound
        var values = [Float](repeating: 0, count: means.count)
        var maximum: Float = 0
        for i in 0..<means.count where !means[i].isNaN {
            let t = span > 0 ? min(1, max(0, (Double(means[i]) - low) / span)) : 1
            let value = max(Float(t), Float.leastNonzeroMagnitude)
            values[i] = value
            maximum = max(maximum, value)
        }
        return IntensityGrid(width: width, height: height, values: values, maximum: maximum, isEmpty: isEmpty)
    }
}

extension ValueIndex {
    /// The mean of every pixel of `rect` where the density Σ wᵢ·K(p − pᵢ) is positive and at
    /// least `minimumDensity`: both channels gathered and convolved as tiles are, so the
    /// result is seamless and exact to float rounding.
    package func mean(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel, minimumDensity: Double = 0)
        -> MeanGrid
    {
        let density = self.density.intensity(in: rect, space: space, kernel: kernel)
        let numerator = density.isEmpty ? nil : shiftedValues.intensity(in: rect, space: space, kernel: kernel)
        return MeanGrid(density: density, numerator: numerator, lowest: lowest, minimumDensity: minimumDensity)
    }
}
