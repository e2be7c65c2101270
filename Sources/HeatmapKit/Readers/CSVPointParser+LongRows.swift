/// Rows with more fields than the header: read (their extra fields are not parsed), and
/// counted, so that what is not read is said (``PointFileReport/longRowSummary``).
extension CSVPointParser {
    /// Whether the record just split (``split(_:limit:)`` with the needed columns) has more
    /// fields than the header. Free when the header has no column after the needed ones (the
    /// split saw whether more follows); otherwise the rest of the record is scanned for its
    /// delimiters outside quotes, up to one more than the header's remaining columns.
    func hasMoreFieldsThanHeader(_ record: Range<Int>) -> Bool {
        let beyond = fields.count - neededFields
        let rest = restStart..<record.upperBound
        if beyond <= 0 && rest.isEmpty { return false }
        let allowed = headerFields - neededFields
        if allowed <= 0 { return true }
        // The split ended on an empty last field: that was the record's last field.
        if beyond > 0 { return beyond > allowed }
        let storage = input.storage
        var delimiters = 0
        var i = rest.lowerBound
        var atFieldStart = true
        var inQuotes = false
        while i < rest.upperBound {
            let byte = storage[i]
            if inQuotes {
                if byte == 34 {
                    if i + 1 < rest.upperBound && storage[i + 1] == 34 {
                        i += 2
                        continue
                    }
                    inQuotes = false
                }
            } else if byte == delimiter {
                delimiters += 1
                if delimiters >= allowed { return true }
                atFieldStart = true
                i += 1
                continue
            } else if byte == 34 && atFieldStart {
                inQuotes = true
            }
            atFieldStart = false
            i += 1
        }
        return false
    }
}
