extension PointIndex {
    /// The most the weights of one data set may sum to: 1e38.
    ///
    /// Intensities are 32-bit floats, whose largest is about 3.4e38, and no intensity exceeds
    /// the sum of all weights (the kernel is at most 1 and a point reaches a pixel once), so
    /// below this bound every intensity, M(z) and bound of its search stays finite, with room
    /// for the rounding of long float sums. A single weight may be up to Float's largest only
    /// if that is all the data; past the bound the point is refused with an error.
    public static let maximumTotalWeight = 1e38

    /// A weight as the index keeps it (a 32-bit float), back in double precision: what the
    /// sums checked against ``maximumTotalWeight`` add, so that readers check what the index holds.
    @inlinable
    public static func storedWeight(_ weight: Double) -> Double { Double(Float(weight)) }

    /// Why a weight cannot be added to a data set whose weights would then sum beyond
    /// ``maximumTotalWeight``; `what` names the weight (`intensity 2e+38`, `weight "2e38"`).
    public static func totalWeightReason(_ what: String) -> String {
        "\(what) brings the sum of the weights above \(maximumTotalWeight), the most one data set may hold "
            + "(intensities are 32-bit floats); scale the weights down"
    }
}
