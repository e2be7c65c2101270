import HeatmapKit

/// One parsed HTTP/1.x request: its head, and its body where the limits let the parser read it.
package struct HTTPRequest: Sendable, Equatable {
    /// The method, case-sensitive as sent (`GET`, `HEAD`, …).
    package var method: String
    /// The request target as sent (origin-form `/path?query`, or absolute-form).
    package var target: String
    /// The path of the target, still percent-encoded, always starting with `/`.
    package var path: String
    /// The query of the target without `?`, still percent-encoded; empty when absent.
    package var query: String
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    package var minorVersion: Int
    /// The header fields in order.
    package var headers: HTTPHeaders
    /// Whether the connection stays open after the response (HTTP/1.1 default, `Connection`).
    package var keepAlive: Bool
    /// Whether the request announced a body (`Content-Length` > 0 or `Transfer-Encoding`).
    package var hasBody: Bool
    /// The body, when the parser read it (see ``HTTPLimits/maxBodyBytes``); `nil` otherwise.
    package var body: [UInt8]?
    /// Whether a body was announced and left unread for want of the token
    /// (``HTTPLimits/bodiesNeedToken``); the connection closes after the response.
    package var bodyUnread = false

    /// Creates a request (tests and in-process use); `path` and `query` are split from `target`.
    package init(method: String, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        (path, query) = Self.split(target)
        self.minorVersion = minorVersion
        self.headers = headers
        keepAlive = minorVersion >= 1
        hasBody = false
    }

    /// The query's parameters, percent-decoded (`+` as space), in order; the value of a setting
    /// that splits before it decodes (``SettingRow/takesEncodedQuery``: `category=COL:V1,V2`)
    /// as sent.
    package var queryItems: [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(parts[0]) ?? ""
            guard parts.count > 1 else { return (name, "") }
            if let row = SettingsSchema.index[name], SettingsSchema.rows[row].takesEncodedQuery {
                return (name, String(parts[1]))
            }
            return (name, PercentDecoding.decode(parts[1]) ?? "")
        }
    }

    /// Splits a target into path and query; an absolute-form target loses its scheme and authority.
    static func split(_ target: String) -> (path: String, query: String) {
        // Origin-form ASCII (what the parser lets through): split on the bytes.
        let utf8 = target.utf8
        if utf8.first == UInt8(ascii: "/"), utf8.allSatisfy({ $0 < 0x80 }) {
            let end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
            guard let mark = utf8[..<end].firstIndex(of: UInt8(ascii: "?")) else {
                // The whole target (most requests): the same storage, not a copy.
                return (end == utf8.endIndex ? target : String(target[..<end]), "")
            }
            return (String(target[..<mark]), String(target[utf8.index(after: mark)..<end]))
        }
        var rest = Substring(target)
        for scheme in ["http://", "https://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let mark = rest.firstIndex(of: "?") else { return (String(rest), "") }
        return (String(rest[..<mark]), String(rest[rest.index(after: mark)...]))
    }
}

/// Header fields in order, looked up case-insensitively.
package struct HTTPHeaders: Sendable, Equatable, Sequence {
    private var fields: [(name: String, value: String)] = []

    /// Creates headers from name/value pairs.
    package init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Appends a field.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field of this name by one.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of this name.
    package mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// The values of every field of this name, in order.
    package subscript(name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The first value of this name.
    package func first(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The number of fields.
    package var count: Int { fields.count }

    /// Iterates the fields in order.
    package func makeIterator() -> some IteratorProtocol<(name: String, value: String)> {
        fields.makeIterator()
    }

    /// Whether both hold the same fields in the same order.
    package static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0 == $1 }
    }
}

extension String {
    /// ASCII case-insensitive equality, as header names compare.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x | 0x20 == y | 0x20 && (x == y || x.isASCIILetter) }
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}

/// Percent-decoding of query and path parts.
enum PercentDecoding {
    /// `nil` when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
