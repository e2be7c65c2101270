extension PointIndex {
    /// The least weight other than 0 a data file may give: 1e-30.
    ///
    /// Weights are kept as 32-bit floats, and a point's share of a pixel is its weight times
    /// two kernel taps (at least exp(-9), about 1.2e-4, at the kernel's corner). From 1e-30 up
    /// every share stays a normal float (above 1.18e-38), so tiles equal the brute-force sum to
    /// float rounding. Smaller weights would lose precision as subnormal floats, or become 0
    /// (below about 1e-45) while still counted: the readers refuse them, naming the place.
    public static let minimumPositiveWeight = 1e-30

    /// Why a weight that is not 0 is below ``minimumPositiveWeight``; `what` names it
    /// (`weight "1e-40"`).
    public static func smallWeightReason(_ what: String) -> String {
        "\(what) is too small (a weight other than 0 is at least \(minimumPositiveWeight): intensities are 32-bit "
            + "floats, which would lose it); scale the weights up, or write 0"
    }
}
