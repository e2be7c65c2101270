import Foundation

/// A record's fields: split at delimiters outside quotes, stripped, unescaped, parsed.
extension CSVPointParser {
    /// Splits a record into `fields` (content ranges without quotes), at most `limit` of them.
    /// Returns a reason if a quoted field is followed by something other than a delimiter.
    mutating func split(_ record: Range<Int>, limit: Int) -> String? {
        fields.removeAll(keepingCapacity: true)
        let storage = input.storage
        var p = record.lowerBound
        let end = record.upperBound
        defer {
            bytesExamined += min(p, end) - record.lowerBound
            restStart = min(p, end)
        }
        while fields.count < limit {
            if p < end && storage[p] == 34 {
                var q = p + 1
                while q < end {
                    if storage[q] == 34 {
                        if q + 1 < end && storage[q + 1] == 34 {
                            q += 2
                            continue
                        }
                        break
                    }
                    q += 1
                }
                fields.append(p + 1..<min(q, end))
                p = q + 1
                if p < end && storage[p] != delimiter {
                    return "field \(fields.count): unexpected text after a closing quote (write a quote as \"\")"
                }
            } else {
                var d = p
                while d < end && storage[d] != delimiter { d += 1 }
                fields.append(p..<d)
                p = d
            }
            if p >= end { break }
            p += 1
            if p == end {
                fields.append(end..<end)
                break
            }
        }
        return nil
    }

    /// A field's text with quotes unescaped (`""` becomes `"`), for names and messages.
    func text(_ range: Range<Int>, limit: Int = 60) -> String {
        let bytes = UnsafeBufferPointer(start: input.storage + range.lowerBound, count: min(range.count, limit))
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"\"", with: "\"")
        return (range.count > limit ? text + "…" : text).escapedForMessage
    }

    /// A field's content without surrounding spaces.
    func stripped(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && (input.storage[lower] == 32 || input.storage[lower] == 9) { lower += 1 }
        while upper > lower && (input.storage[upper - 1] == 32 || input.storage[upper - 1] == 9) { upper -= 1 }
        return lower..<upper
    }

    func number(_ range: Range<Int>) -> Double? {
        DecimalParser.parse(UnsafeBufferPointer(start: input.storage + range.lowerBound, count: range.count))
    }
}
