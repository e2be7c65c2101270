/// What a heatmap pixel shows.
public enum Aggregate: String, Sendable, Hashable, CaseIterable {
    /// The density: Σ wᵢ·K(p − pᵢ), normalised by M(z) (Google's heatmap).
    case sum
    /// The kernel-weighted mean of the points' values, Σ wᵢ·vᵢ·K(p − pᵢ) / Σ wᵢ·K(p − pᵢ),
    /// coloured by its place in the value range, where the density reaches the minimum.
    case mean
}
