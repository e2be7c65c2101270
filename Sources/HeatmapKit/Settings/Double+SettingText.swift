extension Double {
    /// The number as a setting's text: a whole number without a fraction (`30` for `30.0`, so a
    /// whole-number setting reads it), any other as Swift writes it (which reads back exactly).
    package var settingText: String {
        if rounded() == self, abs(self) < 1e15 { return String(Int64(self)) }
        return "\(self)"
    }
}
