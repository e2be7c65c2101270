import Foundation

/// How a pixel's share of the zoom's maximum, t = I / M, picks an entry of the colour map.
///
/// With n entries, entry e (0...n − 1) starts at the threshold τₑ = f⁻¹(e / (n − 1)) and a
/// pixel of intensity I > 0 takes the largest e with I ≥ τₑ · M (so ⌊f(t) · (n − 1)⌋ for
/// t < 1, and the last entry for I ≥ M):
/// - ``linear``: f(t) = t, Google's mapping (the default);
/// - ``sqrt``: f(t) = √t, so τₑ = (e / (n − 1))²;
/// - ``log``: f(t) = log(1 + k·t) / log(1 + k) with k = `logSteepness` (1000), so
///   τₑ = ((1 + k)^(e / (n − 1)) − 1) / k: a pixel at 1/1000 of the maximum is a tenth of the
///   way up the ramp, one at 1/100 a third (linear: a hundredth), one at 1/10 two thirds.
public enum ColorScale: String, Sendable, Hashable, CaseIterable {
    /// f(t) = t.
    case linear
    /// f(t) = √t: sparse areas show beside a dense centre.
    case sqrt
    /// f(t) = log(1 + 1000·t) / log(1001): three decades of intensity on one ramp.
    case log

    /// k of the ``log`` scale.
    package static let logSteepness = 1000.0

    /// f(t) for t in 0...1.
    package func curve(_ t: Double) -> Double {
        switch self {
        case .linear: return t
        case .sqrt: return t.squareRoot()
        case .log: return Foundation.log1p(Self.logSteepness * t) / Foundation.log1p(Self.logSteepness)
        }
    }

    /// f⁻¹(u) for u in 0...1: the share of the maximum at which the ramp reaches u; 1 at u = 1.
    package func inverse(_ u: Double) -> Double {
        if u >= 1 { return 1 }
        switch self {
        case .linear: return u
        case .sqrt: return u * u
        case .log: return Foundation.expm1(u * Foundation.log1p(Self.logSteepness)) / Self.logSteepness
        }
    }

    /// τₑ for e = 0...count − 1: where each entry of a colour map of `count` entries starts.
    package func thresholds(count: Int) -> [Double] {
        let last = Double(max(1, count - 1))
        return (0..<count).map { inverse(Double($0) / last) }
    }
}
