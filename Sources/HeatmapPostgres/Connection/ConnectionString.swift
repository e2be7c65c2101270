import CPostgres

/// A libpq connection string (`postgresql://` URL or `key=value` words) as the user gave it,
/// with what may be shown of it: never the password.
public struct ConnectionString: Sendable, Hashable, CustomStringConvertible {
    /// The string passed to libpq as is (libpq reads `PG*` variables and `.pgpass` itself).
    let text: String

    /// Wraps a connection string; an empty one means libpq's defaults (`PG*` variables).
    public init(_ text: String) {
        self.text = text
    }

    /// The string without its password, for messages: `postgresql://user:***@host/db`,
    /// `host=h password=*** dbname=d`.
    public var description: String { Self.redacted(text) }

    /// The password the string holds (in a URL's user part, a `password=` word or query
    /// parameter), if libpq can parse it.
    var password: String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &message) else {
            if let message { PQfreemem(message) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                return String(cString: value)
            }
            option += 1
        }
        return nil
    }

    /// `text` with the password of any connection string in it replaced by `***`: a URL's
    /// `user:password@`, `password=…` words (quoted or not) and `password=` query parameters.
    static func redacted(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        // URLs: the user info's password.
        while let scheme = rest.firstRange(of: "://") {
            out += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == " " } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                out += rest[..<colon] + ":***"
                rest = rest[at...]
            }
        }
        out += rest
        return redactedWords(out)
    }

    /// Replaces the value of every `password=` (word or query parameter) by `***`.
    private static func redactedWords(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let key = rest.firstRange(of: "password") {
            out += rest[..<key.upperBound]
            rest = rest[key.upperBound...]
            let afterSpaces = rest.drop { $0 == " " }
            guard afterSpaces.first == "=" else { continue }
            out += rest[..<afterSpaces.startIndex] + "="
            var value = afterSpaces.dropFirst().drop { $0 == " " }
            out += rest[afterSpaces.index(after: afterSpaces.startIndex)..<value.startIndex]
            if value.first == "'" {
                // A quoted value ends at the next unescaped quote.
                var i = value.index(after: value.startIndex)
                while i < value.endIndex, value[i] != "'" {
                    if value[i] == "\\" { i = value.index(after: i) }
                    if i < value.endIndex { i = value.index(after: i) }
                }
                value = i < value.endIndex ? value[value.index(after: i)...] : value[value.endIndex...]
            } else {
                value = value.drop { $0 != " " && $0 != "&" && $0 != "\n" }
            }
            out += "***"
            rest = value
        }
        return out + rest
    }
}

extension String {
    /// The string with every occurrence of each secret (of 1 character or more) replaced by `***`.
    func scrubbing(_ secrets: [String]) -> String {
        var text = self
        for secret in secrets where !secret.isEmpty {
            text = text.replacing(secret, with: "***")
        }
        return text
    }
}
