extension DecimalParser {
    /// Parses a number field as every reader reads one: a decimal number (``parse(_:)``),
    /// with any spaces and tabs around it ignored: a CSV or TSV field, quoted or not, and a
    /// JSON string holding a number (`" 1"`, `"1\t"`). Spaces inside it, or nothing but
    /// spaces, are not a number.
    static func parseField(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var lower = 0
        var upper = bytes.count
        while lower < upper && (bytes[lower] == 32 || bytes[lower] == 9) { lower += 1 }
        while upper > lower && (bytes[upper - 1] == 32 || bytes[upper - 1] == 9) { upper -= 1 }
        return parse(UnsafeBufferPointer(rebasing: bytes[lower..<upper]))
    }
}
