extension JSONPointParser {
    /// Parses one complete value into `tape`, iteratively: containers are kept on `stack`.
    mutating func parseValue(key firstKey: Range<Int>) throws(PointFileError) {
        stack.removeAll(keepingCapacity: true)
        var key = firstKey
        while true {
            try skipWhitespace()
            guard tape.nodes.count < JSONTape.maximumNodes else {
                throw fail("a record holds more than \(JSONTape.maximumNodes) values; split it into smaller features")
            }
            guard let byte = try peek() else { throw fail("the data ends early where a value was expected") }
            var node = JSONNode(kind: .null, line: line, column: column, end: 0, key: key, text: 0..<0, number: 0)
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < JSONTape.maximumDepth else {
                    throw fail("nesting deeper than \(JSONTape.maximumDepth) levels")
                }
                pos += 1
                node.kind = byte == UInt8(ascii: "{") ? .object : .array
                stack.append(tape.nodes.count)
                tape.nodes.append(node)
                try skipWhitespace()
                if try peek() == (node.kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    pos += 1
                    stack.removeLast()
                    tape.nodes[tape.nodes.count - 1].end = tape.nodes.count
                } else {
                    if node.kind == .object { key = try memberName() } else { key = 0..<0 }
                    continue
                }
            case UInt8(ascii: "\""):
                pos += 1
                node.kind = .string
                node.text = try parseString()
                node.end = tape.nodes.count + 1
                tape.nodes.append(node)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                node.kind = .number
                try parseNumber(node: &node)
                node.end = tape.nodes.count + 1
                tape.nodes.append(node)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
                for wanted in word.utf8 {
                    guard try peek() == wanted else { throw fail("expected \(word)") }
                    pos += 1
                }
                node.kind = byte == UInt8(ascii: "n") ? .null : .boolean
                node.number = byte == UInt8(ascii: "t") ? 1 : 0
                node.end = tape.nodes.count + 1
                tape.nodes.append(node)
            default:
                throw fail("expected a value, found \(Self.show(byte))")
            }
            // After a value: close containers, or go on to the next member or element.
            while let open = stack.last {
                try skipWhitespace()
                let isObject = tape.nodes[open].kind == .object
                guard let next = try peek() else {
                    throw fail("the data ends early inside a value (a truncated file?)")
                }
                pos += 1
                if next == UInt8(ascii: ",") {
                    key = isObject ? try memberName() : 0..<0
                    break
                }
                guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    pos -= 1
                    throw fail("expected ',' or '\(isObject ? "}" : "]")', found \(Self.show(next))")
                }
                tape.nodes[open].end = tape.nodes.count
                stack.removeLast()
            }
            if stack.isEmpty { return }
        }
    }

    /// Reads `"name" :` and returns the name's range.
    mutating func memberName() throws(PointFileError) -> Range<Int> {
        try expect(UInt8(ascii: "\""), "a member name in quotes")
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return key
    }

    /// Decodes a string whose opening quote is consumed into `tape.bytes`.
    mutating func parseString() throws(PointFileError) -> Range<Int> {
        let start = tape.bytes.count
        while true {
            guard let byte = try peek() else { throw fail("a string is never closed (a missing \")") }
            pos += 1
            if byte == UInt8(ascii: "\"") { return start..<tape.bytes.count }
            guard byte >= 32 else { throw fail("a control character (\(Self.show(byte))) inside a string") }
            guard tape.bytes.count - start < ByteInput.maximumKept else {
                throw fail("a string longer than \(ByteInput.maximumKept) bytes")
            }
            guard tape.bytes.count < JSONTape.maximumBytes else {
                throw fail(
                    "a record holds more than \(JSONTape.maximumBytes) bytes of text; split it into smaller features")
            }
            if byte != UInt8(ascii: "\\") {
                tape.bytes.append(byte)
                continue
            }
            let escaped = try take()
            switch escaped {
            case UInt8(ascii: "n"): tape.bytes.append(10)
            case UInt8(ascii: "t"): tape.bytes.append(9)
            case UInt8(ascii: "r"): tape.bytes.append(13)
            case UInt8(ascii: "b"): tape.bytes.append(8)
            case UInt8(ascii: "f"): tape.bytes.append(12)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): tape.bytes.append(escaped)
            case UInt8(ascii: "u"):
                var value: UInt32 = 0
                for _ in 0..<4 {
                    guard let digit = Character(Unicode.Scalar(try take())).hexDigitValue else {
                        throw fail("\\u needs four hexadecimal digits")
                    }
                    value = value << 4 | UInt32(digit)
                }
                let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                tape.bytes.append(contentsOf: String(Character(scalar)).utf8)
            default: throw fail("unknown escape \\\(Character(Unicode.Scalar(escaped)))")
            }
        }
    }

    /// Reads a number's characters into `tape.bytes` and parses them.
    mutating func parseNumber(node: inout JSONNode) throws(PointFileError) {
        let start = tape.bytes.count
        guard start < JSONTape.maximumBytes else {
            throw fail(
                "a record holds more than \(JSONTape.maximumBytes) bytes of text; split it into smaller features")
        }
        while let byte = try peek(), byte &- 48 < 10 || byte == 45 || byte == 43 || byte == 46 || byte | 0x20 == 101 {
            guard tape.bytes.count - start < 400 else { throw fail("a number longer than 400 characters") }
            tape.bytes.append(byte)
            pos += 1
        }
        node.text = start..<tape.bytes.count
        let value = tape.bytes.withUnsafeBufferPointer {
            DecimalParser.parse(UnsafeBufferPointer(rebasing: $0[start...]))
        }
        guard let value else { throw fail("\"\(tape.text(node.text))\" is not a number") }
        node.number = value
    }
}
