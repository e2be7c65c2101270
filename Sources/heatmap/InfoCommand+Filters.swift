import HeatmapCore
import HeatmapKit

/// `heatmap info`'s time range and categories (with `--time` and `--categories`).
extension InfoCommand {
    /// The first and last time read, as UTC date-times and Unix seconds.
    struct TimeRangeOutput: Codable {
        var first: String
        var last: String
        var firstSeconds: Int64
        var lastSeconds: Int64

        init(_ range: ClosedRange<Int64>) {
            first = TimeParser.format(range.lowerBound)
            last = TimeParser.format(range.upperBound)
            firstSeconds = range.lowerBound
            lastSeconds = range.upperBound
        }
    }

    /// A category column: how many distinct values, and the most frequent (at most 100) with
    /// their counts.
    struct CategoryOutput: Codable {
        struct Value: Codable {
            var value: String
            var count: Int
        }
        var column: String
        var distinct: Int
        var values: [Value]

        init(_ dictionary: CategoryDictionary) {
            column = dictionary.column
            distinct = dictionary.values.count
            values = dictionary.mostFrequent(100).map { Value(value: $0.value, count: $0.count) }
        }
    }

    /// `time: FIRST ... LAST` and a line a category column, for the text report.
    static func filterText(_ output: Output) -> String {
        filterText(timeRange: output.timeRange, categories: output.categories)
    }

    /// `time: FIRST ... LAST` and a line a category column, for a file's or a table's report.
    static func filterText(timeRange: TimeRangeOutput?, categories: [CategoryOutput]?) -> String {
        var text = ""
        if let range = timeRange { text += "time: \(range.first) ... \(range.last)\n" }
        for category in categories ?? [] {
            let listed = category.values.map { "\($0.value.escapedForTerminal) \($0.count)" }.joined(separator: ", ")
            let more =
                category.distinct > category.values.count
                ? ", … (\(category.distinct - category.values.count) more)" : ""
            text += "category \(category.column.escapedForTerminal): \(category.distinct) values: \(listed)\(more)\n"
        }
        return text
    }
}

extension String {
    /// The text with control characters escaped, so that a value from a file cannot move the
    /// terminal's cursor or change its colours.
    fileprivate var escapedForTerminal: String {
        guard unicodeScalars.contains(where: { $0.value < 32 || (127..<160).contains($0.value) }) else { return self }
        return unicodeScalars.map {
            $0.value < 32 || (127..<160).contains($0.value) ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }
        .joined()
    }
}
