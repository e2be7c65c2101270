extension PostgresConnection {
    /// A value to be bound as a parameter where a statement's text is built piece by piece (a
    /// filter's condition, which every statement of a source appends to its own with its own
    /// parameters before it): a placeholder holding the value hex-coded between two NUL
    /// characters. ``execute(_:_:binary:)`` and `executePrepared` replace each placeholder by
    /// the next `$n` after the statement's own parameters and bind the value there, so the
    /// value never reaches the statement's text. A NUL is in no SQL text (libpq ends a
    /// statement at the first), so a placeholder cannot be mistaken for a statement's own
    /// text, nor, should one be left, make anything but a syntax error.
    ///
    /// - Complexity: O(n) in the value's bytes.
    package static func boundValue(_ value: String) -> String {
        var token = "\u{0}"
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count * 2)
        for byte in value.utf8 {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 15)])
        }
        token += String(decoding: bytes, as: UTF8.self)
        return token + "\u{0}"
    }

    /// `sql` with each ``boundValue(_:)`` placeholder replaced by `$n` after `parameters`
    /// (the same value at the same `$n`), and the parameters with their values appended.
    ///
    /// - Throws: ``PostgresError/invalidAnswer(_:)`` for a placeholder that is not one (an odd
    ///   number of NULs or a byte that is not a hex digit between them): a defect, never run.
    static func binding(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> (String, [String?]) {
        guard sql.utf8.contains(0) else { return (sql, parameters) }
        let pieces = sql.utf8.split(separator: 0, omittingEmptySubsequences: false)
        guard pieces.count % 2 == 1 else { throw .invalidAnswer("a statement holds an unfinished bound value") }
        var parameters = parameters
        var numbers: [String: Int] = [:]
        var text = ""
        for (i, piece) in pieces.enumerated() {
            guard i % 2 == 1 else {
                text += String(decoding: piece, as: UTF8.self)
                continue
            }
            let hex = String(decoding: piece, as: UTF8.self)
            guard let value = decodedHex(piece) else {
                throw .invalidAnswer("a statement holds a bound value that is not hex-coded")
            }
            let number: Int
            if let known = numbers[hex] {
                number = known
            } else {
                parameters.append(value)
                number = parameters.count
                numbers[hex] = number
            }
            text += "$\(number)"
        }
        return (text, parameters)
    }

    /// The text whose UTF-8 bytes `hex` spells, two lowercase hex digits a byte; `nil` otherwise.
    private static func decodedHex(_ hex: Substring.UTF8View) -> String? {
        guard hex.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var high: UInt8?
        for c in hex {
            guard let n = nibble(c) else { return nil }
            if let h = high {
                bytes.append(h << 4 | n)
                high = nil
            } else {
                high = n
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
