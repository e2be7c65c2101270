/// The values of one category column, dictionary-coded: each distinct value a small integer
/// (its code, in the order first seen), kept beside the points with each value's count.
package struct CategoryDictionary: Sendable, Hashable {
    /// The most distinct values a column may hold (codes are 16-bit).
    package static let maximumValues = 65_535

    /// The column's name.
    package let column: String
    /// The distinct values, by code.
    package private(set) var values: [String] = []
    /// The number of points holding each value, by code.
    package private(set) var counts: [Int] = []
    /// An open-addressing table over the values: slot i holds the code + 1 of a value hashed
    /// to it (or past it), 0 when empty; its count a power of two at least twice the values.
    private var slots: [UInt16] = []

    /// An empty dictionary for a column.
    package init(column: String) {
        self.column = column
    }

    /// The code of `value`, or `nil` when no point holds it.
    ///
    /// - Complexity: O(bytes of `value`), expected.
    package func code(of value: String) -> UInt16? { find(value, hash: Self.hash(value)).code }

    /// The code of `value`, given it a new one if it is new, and counts `count` more points
    /// with it (a table's values come counted).
    ///
    /// A lookup hashes the value's bytes and probes the table, cheaper than a `Dictionary` of
    /// `String`s (no SipHash): the builder looks up a category a point.
    ///
    /// - Throws: ``FilterError`` when the column would hold more than ``maximumValues`` values.
    /// - Complexity: O(bytes of `value`), expected.
    @discardableResult
    package mutating func add(_ value: String, count: Int = 1) throws(FilterError) -> UInt16 {
        let hash = Self.hash(value)
        let (slot, found) = find(value, hash: hash)
        if let code = found {
            counts[Int(code)] += count
            return code
        }
        guard values.count < Self.maximumValues else {
            throw FilterError(
                "category \(column.quotedForFilter): value \(value.quotedForFilter) is the column's "
                    + "\(Self.maximumValues + 1)th distinct value; a category column holds at most \(Self.maximumValues)"
            )
        }
        let code = UInt16(values.count)
        values.append(value)
        counts.append(count)
        if 2 * values.count > slots.count {
            rehash()
        } else {
            slots[slot] = code + 1
        }
        return code
    }

    /// The slot where `value` is or would go, and its code if it is there.
    private func find(_ value: String, hash: Int) -> (slot: Int, code: UInt16?) {
        guard !slots.isEmpty else { return (0, nil) }
        let mask = slots.count - 1
        var i = hash & mask
        while true {
            let held = slots[i]
            if held == 0 { return (i, nil) }
            if values[Int(held - 1)] == value { return (i, held - 1) }
            i = (i + 1) & mask
        }
    }

    /// The table again, four times as many slots as values (at least 16).
    private mutating func rehash() {
        var size = 16
        while size < 4 * values.count { size *= 2 }
        slots = [UInt16](repeating: 0, count: size)
        for (code, value) in values.enumerated() {
            var i = Self.hash(value) & (size - 1)
            while slots[i] != 0 { i = (i + 1) & (size - 1) }
            slots[i] = UInt16(code + 1)
        }
    }

    /// A hash of the value's UTF-8 bytes, read 8 at a time and mixed by multiplication.
    @inline(__always)
    private static func hash(_ value: String) -> Int {
        var value = value
        return value.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
            var i = 0
            while i + 8 <= bytes.count {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 32
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count {
                tail |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            return Int(truncatingIfNeeded: h ^ (h >> 29))
        }
    }

    /// Counts one point more with the value of `code` (one ``Recent`` found).
    package mutating func add(code: UInt16) {
        counts[Int(code)] += 1
    }

    /// Counts one point fewer with the value of `code` (a point ``add(_:)`` counted, then
    /// refused); the value keeps its code.
    package mutating func remove(code: UInt16) {
        guard counts.indices.contains(Int(code)), counts[Int(code)] > 0 else { return }
        counts[Int(code)] -= 1
    }

    /// The values with their counts, most frequent first (ties by value), at most `limit`.
    package func mostFrequent(_ limit: Int = 100) -> [(value: String, count: Int)] {
        let order = values.indices.sorted {
            counts[$0] != counts[$1] ? counts[$0] > counts[$1] : values[$0] < values[$1]
        }
        return order.prefix(max(0, limit)).map { (values[$0], counts[$0]) }
    }
}

extension CategoryDictionary {
    /// The codes of values seen lately, in a small table picked by the value's bits (no walk
    /// over its bytes): a reader's row repeats a few short values, each a small string whose
    /// bits are its bytes, so most look-ups end here with one comparison of equal bits.
    ///
    /// A slot is only a guess: a value is found there only when it equals (`==`) the value
    /// held, so a value whose bits differ from an equal one's (a long string in storage of its
    /// own) is simply not found, and looked up in the dictionary.
    package struct Recent: Sendable {
        /// The values held, by slot (`nil` while empty), and their codes.
        private var values = [String?](repeating: nil, count: Self.slots)
        private var codes = [UInt16](repeating: 0, count: Self.slots)
        private static let slots = 128

        /// An empty table.
        package init() {}

        /// The slot of `value`: its 16 bytes (a small string's own bytes) mixed, or 0 where a
        /// string is not 16 bytes.
        @inline(__always)
        private static func slot(of value: String) -> Int {
            guard MemoryLayout<String>.size == 16 else { return 0 }
            let bits = withUnsafeBytes(of: value) { raw in
                raw.loadUnaligned(as: UInt64.self) ^ raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    &* 0x9E37_79B9_7F4A_7C15
            }
            return Int(truncatingIfNeeded: (bits &* 0xFF51_AFD7_ED55_8CCD) >> 57)
        }

        /// The code held for `value`, if it is in its slot.
        @inline(__always)
        package func code(of value: String) -> UInt16? {
            let slot = Self.slot(of: value)
            return values[slot] == value ? codes[slot] : nil
        }

        /// Holds `value`'s code in its slot, when the value is short enough (at most 15 bytes
        /// of UTF-8) to be a small string whose bits find it again.
        package mutating func remember(_ value: String, code: UInt16) {
            guard value.utf8.count <= 15 else { return }
            let slot = Self.slot(of: value)
            values[slot] = value
            codes[slot] = code
        }
    }
}
