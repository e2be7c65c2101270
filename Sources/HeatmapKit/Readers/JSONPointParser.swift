/// Reads JSON, GeoJSON and NDJSON with a hand-written, iterative parser over the input's
/// bytes: a sequence of whitespace-separated top-level values, each an array (its elements
/// are records, streamed one by one), or an object (a record, except that the elements of a
/// top-level `"features"` array are streamed as records too). Nesting is limited to
/// ``JSONTape/maximumDepth`` levels and a string to 1 MiB, so memory and stack stay bounded.
struct JSONPointParser {
    let input: ByteInput
    let options: PointReadOptions
    var line = 1
    /// The file offset where the current line starts.
    var lineStart = 0
    /// The values of the record being read; a top-level object's members come first, and
    /// each streamed feature is parsed after them and dropped once read.
    var tape = JSONTape()
    let keys: JSONFieldKeys
    var stack: [Int] = []
    /// Mirrors of the input's position, end and offset: kept here, as a class's properties
    /// cost an exclusivity check on every access.
    var pos: Int
    var end: Int
    var base: Int
    let storage: UnsafeMutablePointer<UInt8>

    init(input: ByteInput, options: PointReadOptions) {
        self.input = input
        self.options = options
        keys = JSONFieldKeys(options)
        pos = input.start
        end = input.end
        base = input.base
        storage = input.storage
    }

    var column: Int { base + pos - lineStart + 1 }

    func fail(_ reason: String) -> PointFileError {
        PointFileError(path: input.path, line: line, column: column, reason: reason)
    }

    /// The next byte without consuming it; `nil` at the end.
    mutating func peek() throws(PointFileError) -> UInt8? {
        if pos == end {
            input.start = pos
            _ = try input.refill(keepingFrom: end, line: line, what: "line \(line)")
            pos = input.start
            end = input.end
            base = input.base
            if pos == end { return nil }
        }
        return storage[pos]
    }

    /// Consumes the next byte, which must be there.
    mutating func take() throws(PointFileError) -> UInt8 {
        guard let byte = try peek() else { throw fail("the data ends early (a truncated file?)") }
        pos += 1
        return byte
    }

    mutating func skipWhitespace() throws(PointFileError) {
        while let byte = try peek() {
            switch byte {
            case 10:
                pos += 1
                line += 1
                lineStart = base + pos
            case 32, 9, 13: pos += 1
            default: return
            }
        }
    }

    mutating func expect(_ wanted: UInt8, _ what: String) throws(PointFileError) {
        try skipWhitespace()
        guard let byte = try peek() else { throw fail("the data ends early where \(what) was expected") }
        guard byte == wanted else { throw fail("expected \(what), found \(Self.show(byte))") }
        pos += 1
    }

    static func show(_ byte: UInt8) -> String {
        (32..<127).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    mutating func read(into collector: inout PointCollector) throws(PointFileError) {
        if try peek() == 0xEF, end - pos >= 3, storage[pos + 1] == 0xBB,
            storage[pos + 2] == 0xBF
        {
            pos += 3
        }
        try skipWhitespace()
        guard try peek() != nil else {
            throw PointFileError(
                path: input.path, reason: "is empty: expected JSON points such as [{\"lat\": -37.1, \"lng\": 145.7}]")
        }
        while let byte = try peek() {
            if byte == UInt8(ascii: "[") {
                pos += 1
                try streamArray(label: "element", into: &collector)
            } else if byte == UInt8(ascii: "{") {
                try streamObject(into: &collector)
            } else {
                throw fail("expected a JSON array or object, found \(Self.show(byte))")
            }
            try skipWhitespace()
        }
    }

    /// Reads the elements of an array whose `[` is consumed, each one a record.
    mutating func streamArray(label: String, into collector: inout PointCollector) throws(PointFileError) {
        try skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            pos += 1
            return
        }
        var number = 0
        while true {
            let mark = (nodes: tape.nodes.count, bytes: tape.bytes.count)
            try parseValue(key: 0..<0)
            try JSONRecordInterpreter(tape: tape, options: options, keys: keys).record(
                mark.nodes, label: RecordLabel(kind: label, number: number), into: &collector)
            tape.truncate(nodes: mark.nodes, bytes: mark.bytes)
            number += 1
            try skipWhitespace()
            let byte = try take()
            if byte == UInt8(ascii: "]") { return }
            guard byte == UInt8(ascii: ",") else {
                pos -= 1
                throw fail("expected ',' or ']' after \(label) \(number - 1), found \(Self.show(byte))")
            }
        }
    }

    /// Reads a top-level object: a record, whose `"features"` array is streamed.
    mutating func streamObject(into collector: inout PointCollector) throws(PointFileError) {
        tape.truncate(nodes: 0, bytes: 0)
        tape.nodes.append(
            JSONNode(kind: .object, line: line, column: column, end: 1, key: 0..<0, text: 0..<0, number: 0))
        pos += 1
        try skipWhitespace()
        var streamed = false
        if try peek() == UInt8(ascii: "}") {
            pos += 1
        } else {
            while true {
                try expect(UInt8(ascii: "\""), "a member name in quotes")
                let key = try parseString()
                try expect(UInt8(ascii: ":"), "':'")
                try skipWhitespace()
                if tape.bytes[key].elementsEqual("features".utf8), try peek() == UInt8(ascii: "[") {
                    pos += 1
                    try streamArray(label: "feature", into: &collector)
                    streamed = true
                } else {
                    try parseValue(key: key)
                }
                try skipWhitespace()
                let byte = try take()
                if byte == UInt8(ascii: "}") { break }
                guard byte == UInt8(ascii: ",") else {
                    pos -= 1
                    throw fail("expected ',' or '}' in the object, found \(Self.show(byte))")
                }
            }
        }
        tape.nodes[0].end = tape.nodes.count
        if !streamed {
            try JSONRecordInterpreter(tape: tape, options: options, keys: keys).record(0, label: nil, into: &collector)
        }
    }
}
