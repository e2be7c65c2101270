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
    private var codes: [String: UInt16] = [:]

    /// An empty dictionary for a column.
    package init(column: String) {
        self.column = column
    }

    /// The code of `value`, or `nil` when no point holds it.
    package func code(of value: String) -> UInt16? { codes[value] }

    /// The code of `value`, given it a new one if it is new, and counts `count` more points
    /// with it (a table's values come counted).
    ///
    /// - Throws: ``FilterError`` when the column would hold more than ``maximumValues`` values.
    @discardableResult
    package mutating func add(_ value: String, count: Int = 1) throws(FilterError) -> UInt16 {
        if let code = codes[value] {
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
        codes[value] = code
        values.append(value)
        counts.append(count)
        return code
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
