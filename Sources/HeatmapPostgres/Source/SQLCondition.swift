/// The check of a table's row condition (`--where`, ``PostgresTable/filter``), raw SQL that every
/// statement puts inside `(…)`: it must be one condition there, so a text that closes a
/// parenthesis it did not open (`true) OR (1=1`), leaves one open, holds a `;`, ends in a `--`
/// comment or leaves a string, quoted name or comment unclosed is refused before any statement
/// (otherwise it changes what the statements around it mean, and tiles fail with a puzzling
/// message); then PostgreSQL parses it once (`LIMIT 0`, nothing read), so a wrong column, type
/// or syntax is said at the start, with PostgreSQL's own message.
enum SQLCondition {
    /// Refuses `filter` (if any) with ``PostgresError/invalidFilter(filter:reason:)`` when it is
    /// not one condition on `table` (quoted).
    static func check(_ filter: String?, table: String, on connection: PostgresConnection) throws(PostgresError) {
        guard let filter else { return }
        if let problem = problem(in: filter) { throw .invalidFilter(filter: filter, reason: problem) }
        do throws(PostgresError) {
            try connection.execute("SELECT 1 FROM \(table) WHERE (\(filter)) LIMIT 0")
        } catch .queryFailed(let reason, let state) {
            throw .invalidFilter(filter: filter, reason: primary(reason) + (state.map { " (SQLSTATE \($0))" } ?? ""))
        }
    }

    /// PostgreSQL's message without its `ERROR:` and the `LINE …` excerpt of the statement.
    static func primary(_ reason: String) -> String {
        var text = Substring(reason)
        if let line = text.range(of: "; LINE ") { text = text[..<line.lowerBound] }
        if text.hasPrefix("ERROR:") { text = text.dropFirst("ERROR:".count) }
        return text.trimmingPrefix(while: { $0 == " " }).description
    }

    /// Why `text` cannot stand as one condition inside `(…)`, or `nil` when it can. A lexical
    /// scan, as PostgreSQL reads text: strings (`'…'`, `''` inside; `E'…'` with backslash
    /// escapes), quoted names (`"…"`), dollar-quoted strings (`$tag$…$tag$`), comments
    /// (`--` to the line's end, nested `/* … */`).
    static func problem(in text: String) -> String? {
        let c = Array(text.unicodeScalars)
        var depth = 0
        var i = 0
        func at(_ index: Int) -> Unicode.Scalar? { index < c.count ? c[index] : nil }
        while i < c.count {
            switch c[i] {
            case "'":
                let escapes = i > 0 && (c[i - 1] == "E" || c[i - 1] == "e") && (i < 2 || !isNamePart(c[i - 2]))
                guard let end = closing("'", from: i + 1, in: c, backslashes: escapes) else {
                    return "a string ('…') opened at character \(i + 1) is not closed"
                }
                i = end
            case "\"":
                guard let end = closing("\"", from: i + 1, in: c, backslashes: false) else {
                    return "a quoted name (\"…\") opened at character \(i + 1) is not closed"
                }
                i = end
            case "$" where i == 0 || !isNamePart(c[i - 1]):
                guard let tagEnd = dollarTag(at: i, in: c) else { break }
                let tag = Array(c[i...tagEnd])
                var j = tagEnd + 1
                while j + tag.count <= c.count, Array(c[j..<(j + tag.count)]) != tag { j += 1 }
                guard j + tag.count <= c.count else {
                    return "a $-quoted string opened at character \(i + 1) is not closed"
                }
                i = j + tag.count - 1
            case "-" where at(i + 1) == "-":
                guard let newline = c[i...].firstIndex(of: "\n") else {
                    return "it ends in a -- comment, which would hide the rest of every statement (use /* … */)"
                }
                i = newline
            case "/" where at(i + 1) == "*":
                var nesting = 1
                var j = i + 2
                while j < c.count, nesting > 0 {
                    if c[j] == "/", at(j + 1) == "*" {
                        nesting += 1
                        j += 1
                    } else if c[j] == "*", at(j + 1) == "/" {
                        nesting -= 1
                        j += 1
                    }
                    j += 1
                }
                guard nesting == 0 else { return "a /* comment opened at character \(i + 1) is not closed" }
                i = j - 1
            case "(":
                depth += 1
            case ")":
                depth -= 1
                guard depth >= 0 else {
                    return
                        "it closes a parenthesis it did not open (character \(i + 1)), so it would not stay one condition"
                }
            case ";":
                return "it holds a ; (character \(i + 1)): one condition, not statements"
            default:
                break
            }
            i += 1
        }
        guard depth == 0 else { return "\(depth) of its parentheses \(depth == 1 ? "is" : "are") not closed" }
        return nil
    }

    /// The index of the quote that closes a string or name opened before `start` (a doubled
    /// quote is one inside), or `nil`.
    private static func closing(_ quote: Unicode.Scalar, from start: Int, in c: [Unicode.Scalar], backslashes: Bool)
        -> Int?
    {
        var i = start
        while i < c.count {
            if backslashes, c[i] == "\\" {
                i += 2
                continue
            }
            if c[i] == quote {
                guard i + 1 < c.count, c[i + 1] == quote else { return i }
                i += 2
                continue
            }
            i += 1
        }
        return nil
    }

    /// The index of the `$` that ends a dollar quote's opening tag at `start` (`$$`, `$tag$`),
    /// or `nil` when the `$` there is not one (a parameter such as `$1`).
    private static func dollarTag(at start: Int, in c: [Unicode.Scalar]) -> Int? {
        var i = start + 1
        while i < c.count, c[i] != "$" {
            guard isNamePart(c[i]), !(i == start + 1 && c[i].properties.numericType != nil) else { return nil }
            i += 1
        }
        return i < c.count ? i : nil
    }

    /// Whether a character may be part of an unquoted name.
    private static func isNamePart(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s == "$" || s.properties.isAlphabetic || s.properties.numericType != nil
    }
}
