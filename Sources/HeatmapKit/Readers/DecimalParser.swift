/// Parses decimal numbers from bytes: `[+-]digits[.digits][(e|E)[+-]digits]` (and `.5`, `5.`).
///
/// Numbers of up to 15 significant digits with a small exponent take an exact fast path
/// (both operands exact, one correctly rounded multiplication or division); anything else
/// falls back to `Double(String)`, so the result always equals `Double(String)`'s.
/// `nan`, `inf`, hexadecimal and other forms are not numbers here.
enum DecimalParser {
    private static let powers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        var i = 0
        guard count > 0, count <= 400 else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var scale = 0
        while i < count, bytes[i] &- 48 < 10 {
            if mantissa != 0 || bytes[i] != 48 { significant += 1 }
            if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48) } else { scale += 1 }
            digits += 1
            i += 1
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < count, bytes[i] &- 48 < 10 {
                if mantissa != 0 || bytes[i] != 48 { significant += 1 }
                if significant <= 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                    scale -= 1
                }
                digits += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        var exponent = 0
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < count, bytes[i] &- 48 < 10 else { return nil }
            while i < count, bytes[i] &- 48 < 10 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- 48) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard i == count else { return nil }
        let power = scale + exponent
        if significant <= 15, mantissa <= 1 << 53, (-22...22).contains(power) {
            let value = power < 0 ? Double(mantissa) / powers[-power] : Double(mantissa) * powers[power]
            return negative ? -value : value
        }
        if mantissa == 0 { return negative ? -0.0 : 0 }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// Parses a string's bytes (for tests and options).
    static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse($0) }
    }
}
