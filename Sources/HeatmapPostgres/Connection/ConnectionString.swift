import CPostgres

/// A libpq connection string (`postgresql://` URL or `key=value` words) as the user gave it,
/// with what may be shown of it: its host, port, database and user as libpq reads them
/// (`PQconninfoParse`), never the string itself, which may hold a password anywhere libpq
/// accepts one (a URL's user part, `password=` words with spaces around `=` or quoted with
/// escapes, percent-encoded query keys such as `pass%77ord`, `sslpassword`).
public struct ConnectionString: Sendable, Hashable, CustomStringConvertible {
    /// The string passed to libpq as is (libpq reads `PG*` variables and `.pgpass` itself).
    let text: String

    /// Wraps a connection string; an empty one means libpq's defaults (`PG*` variables).
    public init(_ text: String) {
        self.text = text
    }

    /// What may be shown of the string, for messages: `host=db.example port=5432 dbname=gis
    /// user=alice` (the keywords it sets, of these four), `libpq's defaults` when it sets none
    /// of them, or a sentence when libpq cannot read it. Nothing else of the string.
    public var description: String {
        guard let options else { return "a connection string libpq cannot read" }
        guard misreadReason == nil else { return "a connection string libpq would misread" }
        return Self.shown(options)
    }

    /// The keywords shown of a connection, in this order.
    static let shownKeywords = ["host", "port", "dbname", "user"]

    /// `options`' host, port, dbname and user as `keyword=value` words (values quoted as libpq
    /// quotes them when they hold a space or a quote; a value holding `://` or `=`, a whole
    /// connection string given as a database name, is not shown), or `libpq's defaults`.
    static func shown(_ options: [(keyword: String, value: String)]) -> String {
        var words: [String] = []
        for keyword in shownKeywords {
            guard let value = options.last(where: { $0.keyword == keyword })?.value, !value.isEmpty else { continue }
            if value.contains("://") || value.contains("=") {
                words.append("\(keyword)=(not shown)")
            } else if value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" || $0.isNewline || $0 == "\t" }) {
                words.append("\(keyword)='" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'")
            } else {
                words.append("\(keyword)=\(value)")
            }
        }
        return words.isEmpty ? "libpq's defaults" : words.joined(separator: " ")
    }

    /// The secrets the string holds, as libpq parses them: its `password` and `sslpassword`.
    var secrets: [String] {
        (options ?? []).filter { ["password", "sslpassword"].contains($0.keyword) }.map(\.value).filter { !$0.isEmpty }
    }

    /// Why libpq cannot read the string, without any part of it: libpq's own message quotes the
    /// piece it stumbled on (`missing "=" after "cd"`, which may be the half of a password
    /// with a space, and may hold quotes of its own), so the message is cut at the first quoted
    /// piece that is not libpq's `"="`; then a hint.
    var unreadableReason: String {
        var message: UnsafeMutablePointer<CChar>?
        if let parsed = PQconninfoParse(text, &message) {
            PQconninfoFree(parsed)
            return "libpq cannot read it"
        }
        defer { if let message { PQfreemem(message) } }
        let raw = message.map { String(cString: $0) } ?? ""
        let line = raw.split(whereSeparator: \.isNewline).joined(separator: "; ")
        return "libpq cannot read the connection string: " + Self.cutAtQuotedPiece(line)
            + " (in a URL write the password's special characters percent-encoded, %40 for @, %2F for /, %20 for a "
            + "space; in key=value words quote a value with spaces: password='a b')"
    }

    /// `text` up to its first quoted piece other than `"="` (followed by a space or its end),
    /// that piece and the rest shown as `…`.
    static func cutAtQuotedPiece(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let quote = rest.firstIndex(of: "\"") {
            out += rest[..<quote]
            let after = rest[quote...]
            if after.hasPrefix("\"=\"") && (after.dropFirst(3).first.map { $0 == " " } ?? true) {
                out += "\"=\""
                rest = after.dropFirst(3)
                continue
            }
            return out + "…"
        }
        return out + rest
    }
}

extension String {
    /// The string with the secrets replaced by `***`: a secret of 4 characters or more
    /// wherever it occurs, a shorter one only where it stands alone (not inside a word or
    /// number), so that a one-letter password `p` leaves `port 5432` readable.
    func scrubbing(_ secrets: [String]) -> String {
        var text = self
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            text = secret.count >= 4 ? text.replacing(secret, with: "***") : text.replacingStandalone(secret)
        }
        return text
    }

    /// The string with each occurrence of `word` that no letter or digit touches replaced by `***`.
    private func replacingStandalone(_ word: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let found = rest.firstRange(of: word) {
            let before = found.lowerBound > rest.startIndex ? rest[rest.index(before: found.lowerBound)] : nil
            let after = found.upperBound < rest.endIndex ? rest[found.upperBound] : nil
            let touched = [before, after].contains { $0.map { $0.isLetter || $0.isNumber } == true }
            out += rest[..<found.lowerBound]
            out += touched ? String(rest[found]) : "***"
            rest = rest[found.upperBound...]
        }
        return out + rest
    }
}
