extension ReferenceRenderer {
    /// The colour-map entry of one pixel by the definition, the plain way: `nil` (transparent)
    /// for I ≤ 0 or a maximum that is not finite and > 0; for the linear scale
    /// min(count − 1, ⌊I / M · (count − 1)⌋); for another the largest e whose threshold
    /// f⁻¹(e / (count − 1)) · M is at most I, found by trying every entry.
    public static func colorEntry(intensity: Double, maximum: Double, count: Int, scale: ColorScale) -> Int? {
        guard intensity > 0, maximum > 0, maximum.isFinite, count >= 2 else { return nil }
        let last = count - 1
        if scale == .linear {
            let scaled = intensity / maximum * Double(last)
            return scaled < Double(last) ? Int(scaled) : last
        }
        var entry = 0
        for e in 1...last where intensity >= scale.inverse(Double(e) / Double(last)) * maximum { entry = e }
        return entry
    }
}
