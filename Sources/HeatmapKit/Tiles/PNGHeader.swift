/// The size of a PNG read from its signature and IHDR chunk, without decoding the image: enough
/// to tell a tile from garbage and to check its size before a full decode.
package struct PNGHeader: Sendable, Hashable {
    /// The width in pixels.
    package var width: Int
    /// The height in pixels.
    package var height: Int

    private static let end: [UInt8] = [0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130]  // IEND and its CRC
    private static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    private static let ihdr: [UInt8] = Array("IHDR".utf8)

    /// The header of `bytes`, or `nil` when they do not start as a PNG does.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 33, bytes[0..<8].elementsEqual(Self.signature),
            bytes[8..<12].elementsEqual([0, 0, 0, 13]), bytes[12..<16].elementsEqual(Self.ihdr)
        else { return nil }
        width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        guard width > 0, height > 0 else { return nil }
    }

    /// Whether `bytes` end with the IEND chunk every whole PNG ends with (a body cut short does not).
    package static func isComplete(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 45 && bytes.suffix(12).elementsEqual(end)
    }
}
