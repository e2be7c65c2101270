/// The heatmap's kernel in one dimension: k(t) = exp(-t² / (2σ²)) for |t| ≤ R, 0 beyond,
/// with σ = R / 3. A point of weight w at pixel q adds w · k(px − qx) · k(py − qy) to pixel p.
package struct GaussianKernel: Sendable, Hashable {
    /// R, the reach in pixels: the radius in points times the scale.
    public let radius: Int
    /// k(t) for t = −R...R, so `taps[t + R]` is k(t); `taps.count == 2R + 1`.
    public let taps: [Float]

    /// Creates the kernel of a reach in pixels (at least 1).
    public init(radius: Int) {
        let r = max(1, radius)
        let sigma = Double(r) / 3
        self.radius = r
        self.taps = (-r...r).map { t in Float(mathExp(-Double(t * t) / (2 * sigma * sigma))) }
    }

    /// k(t) in double precision, as the definition gives it.
    public func value(at t: Int) -> Double {
        guard (-radius...radius).contains(t) else { return 0 }  // abs(Int.min) would trap
        let sigma = Double(radius) / 3
        return mathExp(-Double(t * t) / (2 * sigma * sigma))
    }
}
