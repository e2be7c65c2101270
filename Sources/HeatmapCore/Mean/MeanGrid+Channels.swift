extension MeanGrid {
    /// The mean from its two channels over the same pixels, however they were drawn (a
    /// ``ValueIndex``, or a database's per-pixel sums): `density` Σ wᵢ·K and `numerator`
    /// Σ wᵢ·(vᵢ − `lowest`)·K (`nil` when it is empty); a pixel is shown where the density is
    /// above 0 and at least `minimumDensity`, its mean `lowest + numerator / density`.
    package init(density: IntensityGrid, numerator: IntensityGrid?, lowest: Double, minimumDensity: Double) {
        var means = [Float](repeating: .nan, count: density.values.count)
        var shown = false
        if !density.isEmpty {
            for i in 0..<means.count {
                let d = density.values[i]
                guard d > 0, Double(d) >= minimumDensity else { continue }
                let n = numerator.map { $0.isEmpty ? 0 : $0.values[i] } ?? 0
                means[i] = Float(lowest + Double(n) / Double(d))
                shown = true
            }
        }
        self.init(width: density.width, height: density.height, means: means, density: density, isEmpty: !shown)
    }
}
