extension PointCollector {
    /// Why a value (for the mean) is unusable, or `nil`: it must be a finite number of at most
    /// Float's largest magnitude.
    static func valueProblem(_ value: Double, text: @autoclosure () -> String) -> String? {
        if value.isNaN || value.isInfinite { return "value \"\(text())\" is not a finite number" }
        if value.magnitude > Double(Float.greatestFiniteMagnitude) {
            return "value \"\(text())\" is too large (at most \(Double(Float.greatestFiniteMagnitude)) in magnitude)"
        }
        return nil
    }
}
