extension Route {
    /// `/{layer}/{z}/{x}/{y}[@1x|@2x|@3x].png` read over the bytes, the path of nearly every
    /// request, without the general parse's splitting and Character comparisons; `nil` for
    /// anything else (then the general parse decides, and gives the same answer for these).
    /// The layer must be non-empty printable ASCII other than `static`; numbers 1...8 digits.
    static func fastTile(_ path: String) -> Route? {
        let utf8 = path.utf8
        return utf8.withContiguousStorageIfAvailable { bytes -> Route? in
            let slash = UInt8(ascii: "/")
            guard bytes.count > 8, bytes[0] == slash else { return nil }
            var i = 1
            while i < bytes.count, bytes[i] != slash {
                guard (0x21...0x7E).contains(bytes[i]) else { return nil }
                i += 1
            }
            let layerEnd = i
            guard layerEnd > 1, i < bytes.count else { return nil }
            func digits() -> Int? {
                i += 1
                let start = i
                var value = 0
                while i < bytes.count, (0x30...0x39).contains(bytes[i]) {
                    // Only the first 9 digits count (more is refused below): no overflow on any input.
                    if i - start < 9 { value = value * 10 + Int(bytes[i] - 0x30) }
                    i += 1
                }
                return (1...8).contains(i - start) ? value : nil
            }
            guard let zoom = digits(), i < bytes.count, bytes[i] == slash else { return nil }
            guard let x = digits(), i < bytes.count, bytes[i] == slash else { return nil }
            guard let y = digits() else { return nil }
            var scale = 1
            if i + 3 <= bytes.count, bytes[i] == UInt8(ascii: "@"), bytes[i + 2] == UInt8(ascii: "x"),
                (0x31...0x33).contains(bytes[i + 1])
            {
                scale = Int(bytes[i + 1] - 0x30)
                i += 3
            }
            guard bytes.count - i == 4, bytes[i] == UInt8(ascii: "."), bytes[i + 1] == UInt8(ascii: "p"),
                bytes[i + 2] == UInt8(ascii: "n"), bytes[i + 3] == UInt8(ascii: "g")
            else { return nil }
            let layer = String(decoding: bytes[1..<layerEnd], as: UTF8.self)
            guard layer != "static" else { return nil }
            return .tile(layer: layer, zoom: zoom, x: x, y: y, scale: scale)
        } ?? nil
    }
}
