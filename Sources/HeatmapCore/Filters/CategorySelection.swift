/// The `category` filter of one column: `COL:V1,V2` keeps the points whose `COL` is one of the
/// values. Repeated for other columns, the selections all apply (and); values of one column
/// are alternatives (or).
package struct CategorySelection: Sendable, Hashable, CustomStringConvertible {
    /// The most values one request may name, over all its selections.
    package static let maximumValues = 100

    /// The column.
    package var column: String
    /// The values kept.
    package var values: [String]

    /// A selection from its column and values.
    package init(column: String, values: [String]) {
        self.column = column
        self.values = values
    }

    /// `COL:V1,V2`.
    package var description: String { column + ":" + values.joined(separator: ",") }

    /// Reads `COL:V1,V2`. With `percentEncoded` (a query parameter as sent), the column and
    /// each value are percent-decoded after splitting, so that `%2C` is a comma inside a value
    /// and `%3A` a colon inside the column's name.
    ///
    /// - Throws: ``FilterError`` naming the text for no `:`, an empty column, no value, an empty
    ///   value, bad percent-encoding, or more than ``maximumValues`` values.
    package init(parsing text: String, percentEncoded: Bool = false) throws(FilterError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw FilterError("category \(text.quotedForFilter) has no ':'; give COL:VALUE[,VALUE...]")
        }
        func decoded(_ part: Substring) throws(FilterError) -> String {
            guard percentEncoded else { return String(part) }
            guard let value = Self.percentDecoded(part) else {
                throw FilterError(
                    "category \(text.quotedForFilter): \(String(part).quotedForFilter) is not percent-encoded UTF-8")
            }
            return value
        }
        let column = try decoded(text[..<colon])
        guard !column.isEmpty else {
            throw FilterError("category \(text.quotedForFilter) names no column; give COL:VALUE[,VALUE...]")
        }
        let parts = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= Self.maximumValues else {
            throw FilterError(
                "category \(text.quotedForFilter) names \(parts.count) values; one request may name at most "
                    + "\(Self.maximumValues)")
        }
        var values: [String] = []
        for part in parts {
            let value = try decoded(part)
            guard !value.isEmpty else {
                throw FilterError("category \(text.quotedForFilter) has an empty value; give COL:VALUE[,VALUE...]")
            }
            if !values.contains(value) { values.append(value) }
        }
        self.init(column: column, values: values)
    }

    /// `%XX` sequences decoded (and `+` kept as is), or `nil` for a bad sequence or bytes that
    /// are not UTF-8.
    package static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 65...70: byte - 55
            case 97...102: byte - 87
            default: nil
            }
        }
        while let byte = utf8.next() {
            guard byte == 37 else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hex), let low = utf8.next().flatMap(hex) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
