/// One JSON value of a record, flattened: a container is followed by its members, and `end`
/// is the index after its last descendant, so siblings are found by jumping over subtrees.
struct JSONNode {
    enum Kind: UInt8 {
        case object, array, string, number, boolean, null
    }

    var kind: Kind
    var line: Int
    var column: Int
    /// The index after this node's subtree.
    var end: Int
    /// The member's key in ``JSONTape/bytes``, empty outside objects.
    var key: Range<Int>
    /// A string's decoded content or a number's text in ``JSONTape/bytes``.
    var text: Range<Int>
    /// A number's value (or 1 for `true`).
    var number: Double
}

/// The parsed values of one record (an element, a feature, an NDJSON line), reused from
/// record to record so parsing allocates nothing per point once warm.
struct JSONTape {
    /// The most values one record may hold; beyond it the record is an error.
    static let maximumNodes = 1 << 20
    /// The deepest nesting accepted.
    static let maximumDepth = 128
    /// The most bytes of strings and numbers one record may hold.
    static let maximumBytes = 16 << 20

    var nodes: [JSONNode] = []
    var bytes: [UInt8] = []

    /// Drops the nodes and bytes from the given counts on.
    mutating func truncate(nodes nodeCount: Int, bytes byteCount: Int) {
        nodes.removeSubrange(nodeCount...)
        bytes.removeSubrange(byteCount...)
    }

    /// The text of a range of ``bytes``, shortened for messages.
    func text(_ range: Range<Int>, limit: Int = 60) -> String {
        (range.count > limit ? raw(range, limit: limit) + "…" : raw(range, limit: limit)).escapedForMessage
    }

    /// The text of a range of ``bytes``, at most `limit` bytes of it, as is.
    func raw(_ range: Range<Int>, limit: Int) -> String {
        String(decoding: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + limit)], as: UTF8.self)
    }

    /// The children of a container.
    func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = index + 1
        while child < nodes[index].end {
            result.append(child)
            child = nodes[child].end
        }
        return result
    }

    /// The first member of an object whose key is one of `names` (ASCII, compared without case).
    func member(of index: Int, named names: [JSONKey]) -> (index: Int, name: String)? {
        guard nodes[index].kind == .object else { return nil }
        for name in names {
            var child = index + 1
            while child < nodes[index].end {
                if keyEquals(nodes[child].key, name.folded) { return (child, name.name) }
                child = nodes[child].end
            }
        }
        return nil
    }

    func keyEquals(_ key: Range<Int>, _ folded: [UInt8]) -> Bool {
        guard key.count == folded.count else { return false }
        var i = key.lowerBound
        for wanted in folded {
            let byte = bytes[i]
            if (byte >= 65 && byte <= 90 ? byte | 0x20 : byte) != wanted { return false }
            i += 1
        }
        return true
    }

    /// A number, or a string holding a decimal number (spaces and tabs around it ignored, as
    /// in CSV fields: ``DecimalParser/parseField(_:)``), with its text.
    func numberValue(_ index: Int) -> Double? {
        switch nodes[index].kind {
        case .number: return nodes[index].number
        case .string:
            return bytes.withUnsafeBufferPointer { buffer in
                DecimalParser.parseField(UnsafeBufferPointer(rebasing: buffer[nodes[index].text]))
            }
        default: return nil
        }
    }

    /// The value as written, for messages: a number's or string's text, else its kind.
    func describe(_ index: Int) -> String {
        switch nodes[index].kind {
        case .number, .string: return text(nodes[index].text)
        case .boolean: return nodes[index].number == 1 ? "true" : "false"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }

    /// A string value's content, or `nil` for other kinds.
    func string(_ index: Int) -> String? {
        nodes[index].kind == .string ? raw(nodes[index].text, limit: 200) : nil
    }
}

/// A member name to look up, with its bytes folded to lower case once.
struct JSONKey: Sendable {
    static let type = [JSONKey("type")]
    static let features = [JSONKey("features")]
    static let geometry = [JSONKey("geometry")]
    static let geometries = [JSONKey("geometries")]
    static let properties = [JSONKey("properties")]
    static let coordinates = [JSONKey("coordinates")]

    let name: String
    let folded: [UInt8]

    init(_ name: String) {
        self.name = name
        folded = name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
    }
}

/// The names of the latitude, longitude and weight fields, from the options or the usual ones.
struct JSONFieldKeys: Sendable {
    let latitude: [JSONKey]
    let longitude: [JSONKey]
    let weight: [JSONKey]

    init(_ options: PointReadOptions) {
        latitude = (options.latitudeColumn.map { [$0] } ?? ["lat", "latitude"]).map(JSONKey.init)
        longitude = (options.longitudeColumn.map { [$0] } ?? ["lng", "lon", "long", "longitude"]).map(JSONKey.init)
        weight = (options.weightColumn.map { [$0] } ?? ["weight", "intensity"]).map(JSONKey.init)
    }
}
